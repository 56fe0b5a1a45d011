import { Command } from '@nestjs/cqrs';
import type { HeaderPairs } from '@gw/application';
import type { NotificationKind, SignatureScheme } from '@gw/domain-instances';
import type { EndpointHealth } from '@gw/projections';
import type { ReceiverOptionsFields } from '../receiver-options-fields';

export class ChangeWebhookCommand extends Command<ChangeWebhookResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    /** A URL to register, or '' to switch delivery off. */
    readonly webhookUrl: string,
    /** The kinds to notify (docs/api.md 8.4); undefined chooses the default set. Ignored with an empty URL. */
    readonly events?: readonly NotificationKind[],
    /** The receiver's own headers in clear (section 12; sealed by the handler); undefined keeps them. */
    readonly headers?: HeaderPairs,
    /** The signature scheme (section 12); undefined keeps the one in force. */
    readonly signatureScheme?: SignatureScheme,
  ) {
    super();
  }
}

export interface ChangeWebhookResult extends ReceiverOptionsFields {
  webhookUrl: string;
  enabled: boolean;
  /** The kinds in force, in canonical order. */
  events: NotificationKind[];
  signingSecret?: string;
  /** How the receiver has answered (section 12), as getWebhookStatus shows it. */
  health: EndpointHealth;
}
