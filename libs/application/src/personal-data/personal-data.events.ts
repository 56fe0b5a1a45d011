/** Events of crypto-shredding (docs/api.md section 9): the data keys that seal the personal fields of
 * an instance's messages and acks, one per instance and UTC day, and the record of their erasure. */

/** A data key exists: 32 random bytes, sealed under SECRETS_KEY. Alone in its stream
 * (`datakey-{instanceId}-{day}`), so that deleting the stream destroys the key and nothing else. */
export type DataKeyCreated = {
  type: 'DataKeyCreated';
  data: { instanceId: string; day: string; keyId: string; sealedKey: string };
};

/** Some data keys of an instance were destroyed: `days` (YYYYMMDD), or every one when null. The
 * events they sealed stay in the log, unreadable. */
export type PersonalDataErased = {
  type: 'PersonalDataErased';
  /** `days`: those whose keys were destroyed; erasures always list them (null would mean "all"). */
  data: { instanceId: string; days: string[] | null; reason: 'operator' | 'retention'; at: string };
};

/** The events of the data-key and erasure streams. */
export type PersonalDataEvent = DataKeyCreated | PersonalDataErased;

/** What every data-key stream's name starts with. */
export const DATA_KEY_STREAM_PREFIX = 'datakey-';
/** What every erasure stream's name starts with. */
export const ERASURE_STREAM_PREFIX = 'erasure-';

/** `datakey-{instanceId}-{YYYYMMDD}`: one data key. */
export function dataKeyStreamName(instanceId: string, day: string): string {
  return `${DATA_KEY_STREAM_PREFIX}${instanceId}-${day}`;
}

/** `erasure-{instanceId}`: what was erased of an instance, and why. */
export function erasureStreamName(instanceId: string): string {
  return `${ERASURE_STREAM_PREFIX}${instanceId}`;
}

/** A time in UTC as toISOString writes it (as the gateway stamps every time). */
const UTC_ISO = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?Z$/;

/** The UTC day of an ISO time, as YYYYMMDD. Sealing asks it once per message: a time in the usual
 * form on days 1 to 28 is sliced; the rest (other offsets, and the days and hours Date rolls over,
 * such as 2026-02-30 or 24:00) is left to Date, so both give the same day. */
export function utcDay(iso: string): string {
  const utc = UTC_ISO.exec(iso);
  if (utc) return `${utc[1]}${utc[2]}${utc[3]}`;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw new Error('not a time');
  return at.toISOString().slice(0, 10).replace(/-/g, '');
}

/** The day of a data key stream of `instanceId`, or undefined for any other stream (a prefix read
 * of `datakey-{id}-` also finds the streams of an instance whose id extends it). */
export function dataKeyDayOf(streamName: string, instanceId: string): string | undefined {
  const key = dataKeyOfStream(streamName);
  return key?.instanceId === instanceId ? key.day : undefined;
}

/** The instance and day a data-key stream's name holds (`datakey-{instanceId}-{YYYYMMDD}`: the day
 * is what follows the last dash), or undefined for any other name. */
export function dataKeyOfStream(streamName: string): { instanceId: string; day: string } | undefined {
  if (!streamName.startsWith(DATA_KEY_STREAM_PREFIX)) return undefined;
  const dash = streamName.lastIndexOf('-');
  const instanceId = streamName.slice(DATA_KEY_STREAM_PREFIX.length, dash);
  const day = streamName.slice(dash + 1);
  return dash >= DATA_KEY_STREAM_PREFIX.length && instanceId.length > 0 && /^\d{8}$/.test(day)
    ? { instanceId, day }
    : undefined;
}
