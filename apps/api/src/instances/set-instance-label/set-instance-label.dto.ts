import { MAX_LABEL_LENGTH } from '@gw/domain-instances';
import { EmailAddress, PresentText, RequiredText } from '../../http/param-rules';

/** docs/api.md 13.1: `label` must be given; empty removes it. */
export class SetInstanceLabelDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @RequiredText(128) instanceid!: string;
  @PresentText(MAX_LABEL_LENGTH) label!: string;
}
