import { MAX_LABEL_LENGTH } from '@gw/domain-instances';
import { EmailAddress, Limit, OptionalOneOf, OptionalText, RequiredText } from '../../http/param-rules';

/** docs/api.md 4.3, with the pages and filters of 13.1. */
export class ListInstancesDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @Limit(1000) limit?: string | number;
  @OptionalText(128) after?: string;
  @OptionalOneOf(['active', 'expired']) status?: 'active' | 'expired';
  @OptionalText(MAX_LABEL_LENGTH) label?: string;
}
