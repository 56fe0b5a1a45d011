import { RequiredText } from '../../http/param-rules';

/** docs/api.md 13.2. */
export class GetInstanceStateDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
}
