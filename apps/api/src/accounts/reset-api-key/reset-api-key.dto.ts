import { EmailAddress, RequiredText } from '../../http/param-rules';

/** docs/api.md 8.3. */
export class ResetApiKeyDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
}
