import { INBOX_STREAM_PREFIX } from '@gw/domain-inbox';
import { INSTANCE_STREAM_PREFIX } from '@gw/domain-instances';
import { NOTIFICATIONS_STREAM_PREFIX } from '@gw/domain-notifications';

/** The streams the notifier follows, by name prefix: instances, their traffic, their notifications. */
export const FOLLOWED_STREAM_PREFIXES = [INSTANCE_STREAM_PREFIX, INBOX_STREAM_PREFIX, NOTIFICATIONS_STREAM_PREFIX];

/** The prefix of a followed stream and the instance id after it; empty strings for another stream. */
export function splitStream(streamName: string): [string, string] {
  for (const prefix of FOLLOWED_STREAM_PREFIXES) {
    if (streamName.startsWith(prefix)) return [prefix, streamName.slice(prefix.length)];
  }
  return ['', ''];
}
