import type { EventStore } from '@gw/event-store';
import { erasePersonalData, readDataKeyEvents } from './erase';
import {
  DATA_KEY_STREAM_PREFIX,
  dataKeyDayOf,
  dataKeyOfStream,
  dataKeyStreamName,
  type DataKeyCreated,
} from './personal-data.events';

/** A data key: its instance and UTC day (YYYYMMDD). */
interface DataKey {
  instanceId: string;
  day: string;
}

const DAY_MS = 86_400_000;

export interface RetentionOptions {
  /** MESSAGE_RETENTION_DAYS; 0 keeps every day's keys forever. */
  retentionDays: number;
  now?: () => Date;
  /** Whether this sweeper erases the instance's keys (a notifier partition sweeps its own). */
  owns?: (instanceId: string) => boolean;
}

/** Whether a day (YYYYMMDD) is past retention at `now`: the whole day lies more than `retentionDays`
 * days back, so that every message is kept at least that long. */
export function pastRetention(day: string, now: Date, retentionDays: number): boolean {
  const start = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(4, 6)) - 1, Number(day.slice(6, 8)));
  return retentionDays > 0 && start + (retentionDays + 1) * DAY_MS <= now.getTime();
}

/**
 * MESSAGE_RETENTION_DAYS: erases each day's data keys once the day is past retention. Each sweep
 * lists the data-key streams by name where the store can (EventStore.streamNames: the embedded
 * store walks its index of stream names, so a sweep costs the keys there are, not the length of
 * the log); elsewhere (EventStoreDB) it learns the keys from the log incrementally (only
 * DataKeyCreated events after the last sweep are read). It erases a key only while its stream
 * still holds it, so an erasure is recorded once.
 */
export class RetentionSweep {
  /** Where the store cannot list streams: the keys the log has told and not erased yet (stream
   * name → instance and day), and how far the log was read for them. */
  private readonly known = new Map<string, DataKey>();
  private position?: bigint;
  /** An erasure failed after its keys' streams were deleted: the next sweep finishes the removal
   * from the store's files, which it would not otherwise try, having no key left to delete. */
  private deletesIncomplete = false;

  constructor(
    private readonly store: EventStore,
    private readonly options: RetentionOptions,
  ) {}

  /** One sweep; returns what it erased, per instance. */
  async sweep(): Promise<Array<{ instanceId: string; days: string[] }>> {
    if (this.options.retentionDays === 0) return [];
    if (this.deletesIncomplete) {
      await this.store.completeDeletes?.();
      this.deletesIncomplete = false;
    }
    const listing = this.store.streamNames?.(DATA_KEY_STREAM_PREFIX);
    const known = listing ? await this.listKeys(listing) : await this.learnKeys();
    const now = (this.options.now ?? (() => new Date()))();
    const due = new Map<string, string[]>();
    for (const [stream, { instanceId, day }] of known) {
      if (!pastRetention(day, now, this.options.retentionDays)) continue;
      // Already gone (erased by an operator, or by a sweep before a restart on EventStoreDB).
      if ((await this.store.readLastEvent(stream))?.type !== 'DataKeyCreated') known.delete(stream);
      else due.set(instanceId, [...(due.get(instanceId) ?? []), day]);
    }
    const erased: Array<{ instanceId: string; days: string[] }> = [];
    for (const [instanceId, days] of due) {
      days.sort();
      try {
        await erasePersonalData(this.store, { instanceId, days, reason: 'retention', at: now.toISOString() });
      } catch (error) {
        this.deletesIncomplete = true;
        throw error;
      }
      // Forgotten only once erased: a sweep that failed half-way tries the rest again next time.
      for (const day of days) known.delete(dataKeyStreamName(instanceId, day));
      erased.push({ instanceId, days });
    }
    return erased;
  }

  /** The data keys of the instances this sweeper owns, from a listing of the data-key streams. */
  private async listKeys(listing: AsyncIterable<string>): Promise<Map<string, DataKey>> {
    const keys = new Map<string, DataKey>();
    for await (const stream of listing) {
      const key = dataKeyOfStream(stream);
      if (key && this.owns(key.instanceId)) keys.set(stream, key);
    }
    return keys;
  }

  /** The data keys of the instances this sweeper owns, as the log has told them since the last sweep
   * (added to what earlier sweeps learnt). */
  private async learnKeys(): Promise<Map<string, DataKey>> {
    const { events, position } = await readDataKeyEvents(this.store, undefined, this.position);
    for (const event of events) {
      const { instanceId, day } = event.data as DataKeyCreated['data'];
      if (dataKeyDayOf(event.streamName, instanceId) !== day) continue;
      if (this.owns(instanceId)) this.known.set(event.streamName, { instanceId, day });
    }
    this.position = position;
    return this.known;
  }

  private owns(instanceId: string): boolean {
    return this.options.owns?.(instanceId) ?? true;
  }
}
