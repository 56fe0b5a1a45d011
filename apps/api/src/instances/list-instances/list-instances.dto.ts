import { EmailAddress, RequiredText } from '../../http/param-rules';

/** docs/api.md 4.3. */
export class ListInstancesDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
}
