import type { StoredEvent, StoredEventType } from './event-schemas';

/** `T` with every optional field required, all the way down: a sample must show every field, so
 * that a field added to an event type, optional or not, makes the compiler ask for it here. */
type Complete<T> = T extends readonly (infer E)[]
  ? Complete<E>[]
  : T extends object
    ? { [K in keyof T]-?: Complete<T[K]> }
    : T;

export type DataOf<T extends StoredEventType> = Extract<StoredEvent, { type: T }>['data'];

/**
 * A sample of every stored event type's data in its current shape, typed by the event's own data
 * type. The compiler keeps these in step with the types (this file is part of `npm run build`, so
 * that CI's build fails when a type changes and its sample does not); event-fixtures.spec.ts then
 * compares each with the committed fixture of the type's current version, so that a shape change
 * without a new version fails. The values are made up; only their structure matters (a union-typed field shows one
 * of its forms: the others are checked through the events that carry them alone).
 */
export const SAMPLES: { readonly [T in StoredEventType]: Complete<DataOf<T>> } = {
  InstanceCreated: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    accountId: '5f0c9d8e7b6a5f4e3d2c1b0a99887766',
    packageId: 'monthly',
    tokenHash: `sha256:${'0'.repeat(64)}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-31T00:00:00.000Z',
  },
  InstanceRenewed: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    packageId: 'annual',
    renewedAt: '2026-01-20T00:00:00.000Z',
    expiresAt: '2027-01-31T00:00:00.000Z',
  },
  SigningSecretIssued: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    encryptedSecret: 'v1.sealed-secret',
    issuedAt: '2026-01-01T00:00:00.000Z',
  },
  SigningSecretRotated: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    encryptedSecret: 'v1.sealed-secret',
    rotatedAt: '2026-01-10T00:00:00.000Z',
    previousValidUntil: '2026-01-11T00:00:00.000Z',
  },
  WebhookSet: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    url: 'https://receiver.example/hook',
    setAt: '2026-01-01T00:00:00.000Z',
    events: ['messages', 'acks'],
  },
  WebhookCleared: { instanceId: '0a1b2c3d4e5f60718293a4b5', clearedAt: '2026-01-02T00:00:00.000Z' },
  WebhookDisabledByReceiver: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    url: 'https://receiver.example/hook',
    reason: 'gone',
    disabledAt: '2026-01-03T00:00:00.000Z',
  },
  WebhookHeadersSet: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    names: ['Authorization', 'X-Tenant'],
    sealedHeaders: 'v1.sealed-headers',
    headersHash: `hmac-sha256:${'0'.repeat(64)}`,
    setAt: '2026-01-02T00:00:00.000Z',
  },
  SignatureSchemeChosen: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    scheme: 'ed25519',
    chosenAt: '2026-01-02T00:00:00.000Z',
  },
  SigningKeyPairIssued: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    sealedPrivateKey: 'v1.sealed-private-key',
    publicKey: 'whpk_public-key',
    issuedAt: '2026-01-02T00:00:00.000Z',
  },
  SigningKeyPairRotated: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    sealedPrivateKey: 'v1.sealed-private-key',
    publicKey: 'whpk_public-key',
    rotatedAt: '2026-01-10T00:00:00.000Z',
    previousValidUntil: '2026-01-11T00:00:00.000Z',
  },
  WebhookDisabledForFailing: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    url: 'https://receiver.example/hook',
    failingSince: '2026-01-03T00:00:00.000Z',
    disabledAt: '2026-01-08T00:00:00.000Z',
  },
  InstanceTokenReset: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    tokenHash: `sha256:${'0'.repeat(64)}`,
    resetAt: '2026-01-04T00:00:00.000Z',
  },
  InstanceDeleted: { instanceId: '0a1b2c3d4e5f60718293a4b5', deletedAt: '2026-01-05T00:00:00.000Z' },
  InstanceLabelSet: { instanceId: '0a1b2c3d4e5f60718293a4b5', label: 'shop-berlin', setAt: '2026-01-01T00:00:00.000Z' },
  InstanceStateReported: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    state: 'authorized',
    since: '2026-01-01T00:00:00.000Z',
    reportedAt: '2026-01-01T00:00:01.000Z',
  },
  AccountRegistered: {
    accountId: '5f0c9d8e7b6a5f4e3d2c1b0a99887766',
    email: 'v1.sealed-address',
    apiKeyHash: `sha256:${'0'.repeat(64)}`,
    registeredAt: '2026-01-01T00:00:00.000Z',
  },
  ApiKeyReset: {
    accountId: '5f0c9d8e7b6a5f4e3d2c1b0a99887766',
    apiKeyHash: `sha256:${'0'.repeat(64)}`,
    resetAt: '2026-01-02T00:00:00.000Z',
  },
  AccountErased: { accountId: '5f0c9d8e7b6a5f4e3d2c1b0a99887766', erasedAt: '2026-02-01T00:00:00.000Z' },
  AccountKeyCreated: {
    accountId: '5f0c9d8e7b6a5f4e3d2c1b0a99887766',
    sealedKey: 'v1.sealed-key',
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  MessageReceived: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    message: {
      id: 'wamid.1',
      fromMe: false,
      type: 'chat',
      time: 1767225600,
      // chatId, from, senderName and body, sealed together (docs/api.md 9.3).
      sealed: 'pd2.20260101.0a1b2c3d.sealed-message',
    },
    receivedAt: '2026-01-01T00:00:00.000Z',
  },
  AckReceived: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    ack: { id: 'wamid.1', status: 'delivered', time: 1767225601, sealed: 'pd2.20260101.0a1b2c3d.sealed-chat' },
    receivedAt: '2026-01-01T00:00:01.000Z',
  },
  NotificationCreated: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    webhookId: 'msg_0123456789abcdef',
    sequence: 1,
    body: {
      instanceId: '0a1b2c3d4e5f60718293a4b5',
      sequence: 1,
      label: 'shop-berlin',
      messages: [
        {
          id: 'wamid.1',
          fromMe: false,
          type: 'chat',
          time: 1767225600,
          sealed: 'pd2.20260101.0a1b2c3d.sealed-message',
        },
      ],
    },
    sourceEventIds: ['6f1c1a52-1d3e-4b8e-9a57-0c2f4f0a1b2c'],
    createdAt: '2026-01-01T00:00:00.000Z',
    noticeKey: 'expiring@24',
  },
  DeliveryAttemptFailed: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    webhookId: 'msg_0123456789abcdef',
    sequence: 1,
    attempt: 1,
    at: '2026-01-01T00:00:01.000Z',
    status: 503,
    error: 'receiver answered 503',
    durationMs: 40,
    nextAttemptAt: '2026-01-01T00:00:06.000Z',
  },
  NotificationDelivered: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    webhookId: 'msg_0123456789abcdef',
    sequence: 1,
    attempt: 2,
    at: '2026-01-01T00:00:07.000Z',
    status: 200,
    durationMs: 35,
  },
  NotificationDeadLettered: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    webhookId: 'msg_0123456789abcdef',
    sequence: 1,
    at: '2026-01-02T00:00:00.000Z',
  },
  NotificationCancelled: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    webhookId: 'msg_0123456789abcdef',
    sequence: 1,
    reason: 'webhook cleared',
    at: '2026-01-02T00:00:00.000Z',
  },
  NotificationResent: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    webhookId: 'msg_0123456789abcdef',
    sequence: 1,
    at: '2026-01-03T00:00:00.000Z',
  },
  NotificationRedelivered: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    webhookId: 'msg_0123456789abcdef',
    sequence: 2,
    // Written since version 2: where the body is. Version 1's data has the body instead (its fixture);
    // the type allows both, and a sample shows every field.
    createdRevision: 4,
    body: {
      instanceId: '0a1b2c3d4e5f60718293a4b5',
      sequence: 2,
      label: 'shop-berlin',
      instance: { event: 'renewed', packageid: 'annual', expiresAt: '2027-01-31T00:00:00.000Z' },
    },
    at: '2026-01-20T00:00:00.000Z',
  },
  TestNotificationAttempted: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    webhookId: 'test_0123456789abcdef',
    at: '2026-01-01T00:00:00.000Z',
    status: 200,
    error: '',
    durationMs: 30,
  },
  DataKeyCreated: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    day: '20260101',
    keyId: '0a1b2c3d4e5f60718293a4b5.20260101.89abcdef',
    sealedKey: 'v1.sealed-key',
  },
  PersonalDataErased: {
    instanceId: '0a1b2c3d4e5f60718293a4b5',
    days: ['20260101'],
    reason: 'operator',
    at: '2026-02-01T00:00:00.000Z',
  },
  // The entries are the notifier's state, versioned by the snapshot's own `version`: not compared.
  NotifierSnapshotChunk: { version: 4, position: '1200', entries: [] },
  NotifierCheckpointed: {
    partition: 0,
    partitions: 1,
    position: '1200',
    at: '2026-01-01T00:00:00.000Z',
    snapshot: { stream: 'notifier-snapshot-0-of-1-at-1200', position: '1200', version: 4 },
  },
};
