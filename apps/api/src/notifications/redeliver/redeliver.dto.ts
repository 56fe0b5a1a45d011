import { ValidateBy } from 'class-validator';
import { Codes } from '@gw/contract';
import { MAX_REDELIVER_RANGE } from '@gw/domain-notifications';
import { RequiredText, SequenceParam } from '../../http/param-rules';

/** A `to` given with `from` may name at most MAX_REDELIVER_RANGE sequence numbers; without `to`, the
 * range ends at the last notification and the domain checks it (docs/api.md 8.8). */
const WithinRedeliverRange = () =>
  ValidateBy(
    {
      name: 'isWithinRedeliverRange',
      validator: {
        validate: (to: unknown, args) => {
          const from = Number((args?.object as { from?: unknown }).from);
          return !Number.isSafeInteger(from) || Number(to) - from + 1 <= MAX_REDELIVER_RANGE;
        },
      },
    },
    {
      context: { code: Codes.MalformedParameter },
      message: `$property may be at most from + ${MAX_REDELIVER_RANGE - 1}`,
    },
  );

/** docs/api.md 8.8. */
export class RedeliverDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @SequenceParam(1, false) from!: string | number;
  @SequenceParam(1, true) @WithinRedeliverRange() to?: string | number;
}
