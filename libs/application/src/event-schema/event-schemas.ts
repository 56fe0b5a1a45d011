import type { AccountEvent } from '@gw/domain-accounts';
import type { InboxEvent } from '@gw/domain-inbox';
import type { InstanceEvent } from '@gw/domain-instances';
import type { NotificationEvent, NotifierRecord } from '@gw/domain-notifications';
import type { AccountKeyCreated } from '../accounts/account-identity';
import type { PersonalDataEvent } from '../personal-data/personal-data.events';

/** Every event type this code stores, in its current shape. */
export type StoredEvent =
  | InstanceEvent
  | AccountEvent
  | AccountKeyCreated
  | InboxEvent
  | NotificationEvent
  | NotifierRecord
  | PersonalDataEvent;
/** The type of an event the registry knows. */
export type StoredEventType = StoredEvent['type'];

/** Turns the data of one version of an event into the data of the next. Pure: stored JSON in, JSON
 * out; it never mutates its input, which may be shared with other readers. */
export type Upcaster = (data: unknown) => unknown;

/** The current schema version of an event type, and the upcaster from each older version to the
 * next: `upcasters[n]` turns version n into version n + 1. */
export interface EventSchema {
  readonly version: number;
  readonly upcasters: Readonly<Record<number, Upcaster>>;
}

const V1: EventSchema = { version: 1, upcasters: {} };

/** Version 1 of NotificationCreated, written before batching: one `sourceEventId`. Version 2 names
 * a list. The key keeps its place, so the upcast data reads like data written as version 2. */
function notificationCreatedV1toV2(data: unknown): unknown {
  const entries = Object.entries(data as Record<string, unknown>).map(([key, value]) =>
    key === 'sourceEventId' ? ['sourceEventIds', [value]] : [key, value],
  );
  return Object.fromEntries(entries);
}

/** Version 1 of NotificationRedelivered carried the notification's body; version 2 names where it
 * is (`createdRevision`). The type takes either form, so version 1's data is read as it is. */
function notificationRedeliveredV1toV2(data: unknown): unknown {
  return data;
}

/** Version 3 of the events that carry a body lets it carry the instance's `label` (docs/api.md
 * 13.1); a body of version 2 had none, which version 3 writes as an absent `label`. */
function bodyLabelled(data: unknown): unknown {
  return data;
}

/**
 * The schema of every stored event type. A record over StoredEventType, so that a new event type
 * fails the build until it is registered here. Changing the shape of a type means: bump its version,
 * add the upcaster from the previous one, and commit the new fixture (`npm run events:fixtures`);
 * the fixtures spec fails until all three are done. See docs/api.md section 9.
 */
const SCHEMAS: { readonly [T in StoredEventType]: EventSchema } = {
  InstanceCreated: V1,
  InstanceRenewed: V1,
  SigningSecretIssued: V1,
  SigningSecretRotated: V1,
  WebhookSet: V1,
  WebhookCleared: V1,
  WebhookDisabledByReceiver: V1,
  InstanceTokenReset: V1,
  InstanceDeleted: V1,
  WebhookHeadersSet: V1,
  SignatureSchemeChosen: V1,
  SigningKeyPairIssued: V1,
  SigningKeyPairRotated: V1,
  WebhookDisabledForFailing: V1,
  InstanceLabelSet: V1,
  InstanceStateReported: V1,
  AccountRegistered: V1,
  ApiKeyReset: V1,
  AccountErased: V1,
  AccountKeyCreated: V1,
  MessageReceived: V1,
  AckReceived: V1,
  NotificationCreated: { version: 3, upcasters: { 1: notificationCreatedV1toV2, 2: bodyLabelled } },
  DeliveryAttemptFailed: V1,
  NotificationDelivered: V1,
  NotificationDeadLettered: V1,
  NotificationCancelled: V1,
  NotificationResent: V1,
  NotificationRedelivered: { version: 3, upcasters: { 1: notificationRedeliveredV1toV2, 2: bodyLabelled } },
  TestNotificationAttempted: V1,
  DataKeyCreated: V1,
  PersonalDataErased: V1,
  // A snapshot's data carries the version of the state it holds (SNAPSHOT_VERSION in the notifier),
  // which changes with that state and makes older snapshots ignored, not upcast. This version is the
  // envelope's: version, position, entries.
  NotifierSnapshotChunk: V1,
  NotifierCheckpointed: V1,
};

/** The registry the apps and tools use: event type → its schema. */
export const EVENT_SCHEMAS: ReadonlyMap<string, EventSchema> = checked(new Map(Object.entries(SCHEMAS)));

/** Refuses, at load, a registry that could not upcast every older version to the current one. */
function checked(schemas: Map<string, EventSchema>): Map<string, EventSchema> {
  for (const [type, { version, upcasters }] of schemas) {
    if (!Number.isInteger(version) || version < 1)
      throw new Error(`event schema of ${type}: version must be an integer from 1, not ${version}`);
    for (let from = 1; from < version; from++) {
      if (typeof upcasters[from] !== 'function')
        throw new Error(`event schema of ${type}: no upcaster from version ${from} to ${from + 1}`);
    }
  }
  return schemas;
}
