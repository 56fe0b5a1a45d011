import { EmailAddress, RequiredText } from '../../http/param-rules';

/** docs/api.md 8.1. */
export class DeleteInstanceDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @RequiredText(128) instanceid!: string;
}
