import { EmailAddress, OptionalText, RequiredText } from '../../http/param-rules';
import { DayRange, OptionalDay } from './usage-dates';

/** docs/api.md 13.3. */
export class GetUsageDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @OptionalDay() from?: string;
  @OptionalDay() @DayRange() to?: string;
  /** Narrows the answer to one instance of the account (the dashboard's chart). */
  @OptionalText(128) instanceid?: string;
}
