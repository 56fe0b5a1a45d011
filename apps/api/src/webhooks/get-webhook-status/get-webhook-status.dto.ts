import { RequiredText } from '../../http/param-rules';

/** docs/api.md 4.5. */
export class GetWebhookStatusDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
}
