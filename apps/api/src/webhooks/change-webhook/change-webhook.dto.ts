import { ValidateIf } from 'class-validator';
import {
  NotificationKindsParam,
  RequiredText,
  SignatureSchemeParam,
  WebhookHeadersParam,
  WebhookUrlParam,
} from '../../http/param-rules';

/** An empty `webhookUrl` switches delivery off and ignores the receiver's options: they are not
 * checked (docs/api.md 8.4 and section 12). */
const UnlessSwitchingOff = () => ValidateIf((dto: ChangeWebhookDto) => dto.webhookUrl !== '');

/** docs/api.md 4.4, 4.6, 8.4 and section 12. */
export class ChangeWebhookDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @WebhookUrlParam() webhookUrl!: string;
  /** The notification kinds (docs/api.md 8.4); absent (or a JSON null) chooses the default set. */
  @UnlessSwitchingOff() @NotificationKindsParam() events?: string | null;
  /** The receiver's own headers, a JSON object text (section 12); absent keeps them, "{}" removes them. */
  @UnlessSwitchingOff() @WebhookHeadersParam() webhookHeaders?: string | null;
  /** `hmac` or `ed25519` (section 12); absent keeps the scheme in force. */
  @UnlessSwitchingOff() @SignatureSchemeParam() signatureScheme?: string | null;
}
