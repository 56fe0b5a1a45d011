import { Command } from '@nestjs/cqrs';
export class RotateSigningSecretCommand extends Command<RotateSigningSecretResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
  ) {
    super();
  }
}

/** docs/api.md 8.5: the new secret in clear (as getWebhookStatus shows it), and until when the one it
 * replaced still signs; null when it is the instance's first. */
export interface RotateSigningSecretResult {
  signingSecret: string;
  previousValidUntil: string | null;
}
