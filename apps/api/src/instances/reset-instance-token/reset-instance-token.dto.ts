import { EmailAddress, RequiredText } from '../../http/param-rules';

/** docs/api.md 8.2. */
export class ResetInstanceTokenDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @RequiredText(128) instanceid!: string;
}
