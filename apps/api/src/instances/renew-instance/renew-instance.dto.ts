import { EmailAddress, RequiredText } from '../../http/param-rules';

/** docs/api.md 4.2. */
export class RenewInstanceDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @RequiredText(64) packageid!: string;
  @RequiredText(128) instanceid!: string;
}
