import { MAX_LABEL_LENGTH } from '@gw/domain-instances';
import { EmailAddress, OptionalText, RequiredText } from '../../http/param-rules';

/** 4.1: `token` carries the account API key here, as the spec names it. */
export class CreateInstanceDto {
  @EmailAddress() email!: string;
  @RequiredText(512) token!: string;
  @RequiredText(64) packageid!: string;
  /** docs/api.md 13.1: the instance's label; empty is none. */
  @OptionalText(MAX_LABEL_LENGTH) label?: string;
}
