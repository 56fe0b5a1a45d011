import { ACK_STATUSES } from '@gw/domain-inbox';
import { OneOf, OptionalBoolean, OptionalText, RequiredText, UnixSeconds } from '../../http/param-rules';

/** docs/api.md section 6: a new incoming message. `id`, `chatId` and `time` are required. */
export class MessageDto {
  @RequiredText(256) id!: string;
  @RequiredText(256) chatId!: string;
  @OptionalText(256) from?: string;
  @OptionalBoolean() fromMe?: boolean;
  @OptionalText(256) senderName?: string;
  @OptionalText(64) type?: string;
  @OptionalText(60_000, true) body?: string;
  @UnixSeconds() time!: number;
}

/** docs/api.md section 6: a delivery event; every field is required. */
export class AckDto {
  @RequiredText(256) id!: string;
  @RequiredText(256) chatId!: string;
  @OneOf(ACK_STATUSES) status!: (typeof ACK_STATUSES)[number];
  @UnixSeconds() time!: number;
}
