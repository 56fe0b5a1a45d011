import { EmailAddress, RequiredText } from '../../http/param-rules';
import { DayRange, OptionalDay } from './usage-dates';

/** docs/api.md 13.3. */
export class GetUsageDto {
  @EmailAddress() email!: string;
  @RequiredText(512) apikey!: string;
  @OptionalDay() from?: string;
  @OptionalDay() @DayRange() to?: string;
}
