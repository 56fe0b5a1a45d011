import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { WrongExpectedRevisionError, type EventStore } from '@gw/event-store';
import { newEventId } from '../ids';
import { liveInstance } from '../streams';
import { KEY_BYTES } from './aead';
import type { SecretBox } from '../secret-box';
import { dataKeyStreamName, type DataKeyCreated } from './personal-data.events';

/** What a sealed value holds: a message's four personal fields or an ack's one. Part of what a value
 * sealed under a key authenticates with it (the key's `aad`). */
export type SealedKind = 'message' | 'ack';

/** A data key in clear, as this process holds it for at most `ttlMs`. */
export interface DataKey {
  keyId: string;
  /** The key's bytes (XChaCha20-Poly1305, see aead.ts). */
  key: Buffer;
  /** What every value sealed under it authenticates with it: the key id and the value's kind. */
  aad: Record<SealedKind, Buffer>;
}

/** A data key as held in memory: its bytes copied into memory of their own, not Node's shared pool
 * of small buffers, where they could stay in a slab that other buffers keep alive. (A key dropped
 * from memory is not wiped: an open in progress may still be using it.) */
export function dataKey(keyId: string, raw: Buffer): DataKey {
  if (raw.length !== KEY_BYTES) throw new Error(`a data key has ${KEY_BYTES} bytes`);
  const key = Buffer.alloc(KEY_BYTES);
  raw.copy(key);
  return {
    keyId,
    key,
    aad: { message: Buffer.from(`${keyId}|message`, 'utf8'), ack: Buffer.from(`${keyId}|ack`, 'utf8') },
  };
}

/** How long data keys are held in memory, and how many. */
export interface DataKeysOptions {
  /** How long a key read from the store is used before it is read again (the contract's "within a
   * second": a running process stops using an erased key this long after the erasure at most). */
  ttlMs?: number;
  /** Keys held at once; the least recently used is forgotten first. */
  maxKeys?: number;
  now?: () => number;
}

interface Held {
  key: DataKey | null;
  /** The id of the DataKeyCreated event the key came from: the same event read again is the same key. */
  eventId?: string;
  until: number;
  /** Key ids asked for and found absent since this was read: erased ones, not asked again. */
  absent: Set<string>;
}

/** The key of a key id, `{instanceId}.{YYYYMMDD}.{8 hex}`: where it lives. Undefined when malformed. */
export function dataKeyStreamOf(keyId: string): string | undefined {
  const match = /^(.+)\.(\d{8})\.[0-9a-f]{8}$/.exec(keyId);
  return match ? dataKeyStreamName(match[1], match[2]) : undefined;
}

/** How many lifetimes (`ttlMs`) an expired key stays in memory before it is dropped. */
const IDLE_TTLS = 10;

/**
 * Data keys of instances and days, read from their streams and sealed under SECRETS_KEY there. Keys
 * are held briefly, then read again, so that an erasure by another process (deleteStream of the key's
 * stream) takes effect here within `ttlMs`. A missing key is remembered as missing for as long.
 */

export class DataKeys {
  private readonly held: LRUCache<string, Held>;
  private readonly loading = new Map<string, Promise<DataKey | null>>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: EventStore,
    private readonly box: SecretBox,
    options: DataKeysOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 1000;
    this.now = options.now ?? Date.now;
    // A key no longer used is dropped from memory soon after it expired (it is kept a little beyond,
    // so that a key in use is not unsealed again on every read), used again or not: an entry lives
    // IDLE_TTLS lifetimes past its expiry, counted from when it was held, and is purged at that pace.
    this.held = new LRUCache({
      max: options.maxKeys ?? 10_000,
      ttl: this.ttlMs * (IDLE_TTLS + 1),
      perf: { now: this.now },
    });
    setInterval(() => this.held.purgeStale(), Math.max(this.ttlMs * IDLE_TTLS, 1000)).unref();
  }

  /** The key a value sealed under `keyId` needs, or null once it was erased (or never existed). */
  async forOpening(keyId: string): Promise<DataKey | null> {
    const stream = dataKeyStreamOf(keyId);
    if (!stream) return null;
    const held = this.held.get(stream);
    const fresh = held && held.until > this.now() ? held : undefined;
    if (fresh?.key?.keyId === keyId) return fresh.key;
    if (fresh?.absent.has(keyId)) return null;
    // A key id not seen yet may be a key made since the last read (after an erasure, a new key of the
    // same day): read again, once, before calling it erased.
    if (fresh) this.held.delete(stream);
    const key = await this.current(stream);
    if (key?.keyId === keyId) return key;
    this.held.get(stream)?.absent.add(keyId);
    return null;
  }

  /** The key that seals the instance's personal data of `day`, created on first use, and only for
   * an instance that exists and was not deleted (else RequiredStreamMissingError, and no key). */
  async forSealing(instanceId: string, day: string): Promise<DataKey> {
    const stream = dataKeyStreamName(instanceId, day);
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await this.current(stream);
      if (existing) return existing;
      const created = await this.create(stream, instanceId, day);
      if (created) return created;
      // Another process created it first: its key is the one to use.
      this.held.delete(stream);
    }
    throw new Error(`the data key stream ${stream} kept changing`);
  }

  /** Forgets every key held, so that the next use reads the store (tests; an erasure in-process). */
  forget(): void {
    this.held.clear();
  }

  private async current(stream: string): Promise<DataKey | null> {
    const held = this.held.get(stream);
    if (held && held.until > this.now()) return held.key;
    const pending = this.loading.get(stream);
    if (pending) return pending;
    const load = this.load(stream).finally(() => this.loading.delete(stream));
    this.loading.set(stream, load);
    return load;
  }

  private async load(stream: string): Promise<DataKey | null> {
    const last = await this.store.readLastEvent(stream);
    if (last?.type !== 'DataKeyCreated') {
      this.hold(stream, null);
      return null;
    }
    // Still there: the key held before is kept, not unsealed again (the stream is read again every
    // `ttlMs` only to learn of an erasure; unsealing was a third of the cost of opening in bench d).
    const before = this.held.get(stream);
    const key =
      before?.key && before.eventId === last.id ? before.key : this.unseal(last.data as DataKeyCreated['data']);
    this.hold(stream, key, last.id);
    return key;
  }

  private unseal({ keyId, sealedKey }: DataKeyCreated['data']): DataKey {
    const raw = Buffer.from(this.box.openFresh(sealedKey), 'base64');
    try {
      return dataKey(keyId, raw);
    } finally {
      raw.fill(0);
    }
  }

  /** Appends a new key where none exists; null when another writer got there first. */
  private async create(stream: string, instanceId: string, day: string): Promise<DataKey | null> {
    const keyId = `${instanceId}.${day}.${randomBytes(4).toString('hex')}`;
    const raw = randomBytes(KEY_BYTES);
    const created = dataKey(keyId, raw);
    raw.fill(0);
    const event: DataKeyCreated = {
      type: 'DataKeyCreated',
      data: { instanceId, day, keyId, sealedKey: this.box.seal(created.key.toString('base64')) },
    };
    const id = newEventId();
    try {
      await this.store.append(stream, [{ id, type: event.type, data: event.data }], 'no_stream', {
        requires: liveInstance(instanceId),
      });
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return null;
      throw error;
    }
    this.hold(stream, created, id);
    return created;
  }

  private hold(stream: string, key: DataKey | null, eventId?: string): void {
    this.held.set(stream, { key, eventId, until: this.now() + this.ttlMs, absent: new Set() });
  }
}
