import { EmailAddress, RequiredText } from '../../http/param-rules';

/** 4.1: `token` carries the account API key here, as the spec names it. */
export class CreateInstanceDto {
  @EmailAddress() email!: string;
  @RequiredText(512) token!: string;
  @RequiredText(64) packageid!: string;
}
