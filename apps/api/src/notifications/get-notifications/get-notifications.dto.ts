import { Limit, RequiredText, SequenceParam } from '../../http/param-rules';

/** docs/api.md 8.7. */
export class GetNotificationsDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @SequenceParam(0, true) after?: string | number;
  @Limit(100) limit?: string | number;
}
