import { EmailAddress, RequiredText } from '../http/param-rules';

/** 4.1: `token` carries the account API key here, as the spec names it. */
export class NewInstanceDto {
  @EmailAddress() email!: string;
  @RequiredText(512) token!: string;
  @RequiredText(64) packageid!: string;
}

export class RenewInstanceDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @RequiredText(64) packageid!: string;
  @RequiredText(128) instanceid!: string;
}

export class ListInstancesDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
}

/** docs/api.md 8.1. */
export class DeleteInstanceDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @RequiredText(128) instanceid!: string;
}

/** docs/api.md 8.2. */
export class ResetInstanceTokenDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @RequiredText(128) instanceid!: string;
}
