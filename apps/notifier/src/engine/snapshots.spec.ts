import type { RecordedEvent } from '@gw/event-store';
import { NotifierModel } from './notifier-model';
import { SNAPSHOT_VERSION, type SnapshotEntry } from './snapshots';

/** A snapshot holds the model's states as they are; reading one of another shape would give a
 * notifier wrong states, so each shape has its version. */

const I = 'i1';
let position = 0n;
const recorded = (
  streamName: string,
  revision: bigint,
  type: string,
  data: Record<string, unknown>,
): RecordedEvent => ({
  id: `e${++position}`,
  streamName,
  revision,
  position,
  type,
  data,
  metadata: {},
  recordedAt: '2026-01-01T00:00:00.000Z',
});

/** A model with an instance whose every state field is set, and an open notification. */
function populated(): NotifierModel {
  const model = new NotifierModel(1, 0);
  const instance = (revision: bigint, type: string, data: Record<string, unknown>) =>
    model.applyInstanceEvent(I, recorded(`instance-${I}`, revision, type, { instanceId: I, ...data }));
  instance(0n, 'InstanceCreated', {
    accountId: 'acct-ann',
    packageId: 'trial',
    tokenHash: 'th',
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-04T00:00:00.000Z',
  });
  instance(1n, 'SigningSecretIssued', { encryptedSecret: 'sealed', issuedAt: '2026-01-01T00:00:00.000Z' });
  instance(2n, 'WebhookSet', { url: 'https://receiver.example/hook', setAt: '2026-01-01T00:00:00.000Z' });
  instance(3n, 'WebhookDisabledByReceiver', {
    url: 'https://receiver.example/hook',
    reason: 'gone',
    disabledAt: '2026-01-01T00:00:01.000Z',
  });
  model.applyRecordedNotification(
    I,
    recorded(`notifications-${I}`, 0n, 'NotificationCreated', {
      instanceId: I,
      webhookId: 'msg_1',
      sequence: 1,
      body: { instanceId: I, sequence: 1, messages: [] },
      sourceEventIds: ['ev-1'],
      createdAt: '2026-01-01T00:00:00.000Z',
    }),
  );
  model.applyRecordedNotification(
    I,
    recorded(`notifications-${I}`, 1n, 'NotificationCreated', {
      instanceId: I,
      webhookId: 'msg_2',
      sequence: 2,
      body: { instanceId: I, sequence: 2, instance: { event: 'expiring', expiresAt: '2026-01-04T00:00:00.000Z' } },
      sourceEventIds: [],
      noticeKey: 'expiring@24',
      createdAt: '2026-01-03T00:00:00.000Z',
    }),
  );
  return model;
}

const keysOf = (value: object) => Object.keys(value).sort();

/** The shape each version was written with. A new field in a state needs a new version here and in
 * SNAPSHOT_VERSION, so that a notifier never restores an old snapshot as if it had the new shape. */
const SHAPES: Record<number, { instance: string[]; notifications: string[]; open: string[]; noticePeriod?: string[] }> =
  {
    1: {
      instance: [
        'accountEmail',
        'createdAt',
        'disabledReason',
        'encryptedSigningSecret',
        'expiresAt',
        'instanceId',
        'packageId',
        'status',
        'tokenHash',
        'webhookOn',
        'webhookUrl',
      ],
      notifications: ['lastSequence', 'open'],
      open: ['attempts', 'body', 'nextAttemptAt', 'sequence', 'status', 'webhookId'],
    },
    // Notification kinds and signing-secret rotation (docs/api.md 8.4, 8.5).
    2: {
      instance: [
        'accountEmail',
        'createdAt',
        'disabledReason',
        'encryptedSigningSecret',
        'events',
        'expiresAt',
        'instanceId',
        'packageId',
        'previousSigningSecret',
        'status',
        'tokenHash',
        'webhookOn',
        'webhookUrl',
      ],
      notifications: ['lastSequence', 'open'],
      open: ['attempts', 'body', 'nextAttemptAt', 'sequence', 'status', 'webhookId'],
    },
    // Instance notices (docs/api.md 8.9): the period they are judged in, and the ledger of those made.
    3: {
      instance: [
        'accountEmail',
        'createdAt',
        'disabledReason',
        'encryptedSigningSecret',
        'events',
        'expiresAt',
        'instanceId',
        'packageId',
        'previousSigningSecret',
        'status',
        'tokenHash',
        'webhookOn',
        'webhookUrl',
      ],
      notifications: ['lastSequence', 'notices', 'open'],
      open: ['attempts', 'body', 'nextAttemptAt', 'sequence', 'status', 'webhookId'],
      noticePeriod: ['expiresAt', 'renewal', 'since'],
    },
    // Every renewal announced, several before a notice included (docs/api.md 8.9).
    4: {
      instance: [
        'accountEmail',
        'createdAt',
        'disabledReason',
        'encryptedSigningSecret',
        'events',
        'expiresAt',
        'instanceId',
        'packageId',
        'previousSigningSecret',
        'status',
        'tokenHash',
        'webhookOn',
        'webhookUrl',
      ],
      notifications: ['lastSequence', 'notices', 'open'],
      open: ['attempts', 'body', 'nextAttemptAt', 'sequence', 'status', 'webhookId'],
      noticePeriod: ['expiresAt', 'renewals', 'since'],
    },
    // Audit and erasure (docs/api.md 9.3, 9.5): an account's id instead of its address, and open
    // notifications' bodies holding sealed messages and acks.
    5: {
      instance: [
        'accountId',
        'createdAt',
        'disabledReason',
        'encryptedSigningSecret',
        'events',
        'expiresAt',
        'instanceId',
        'packageId',
        'previousSigningSecret',
        'status',
        'tokenHash',
        'webhookOn',
        'webhookUrl',
      ],
      notifications: ['lastSequence', 'notices', 'open'],
      open: ['attempts', 'body', 'nextAttemptAt', 'sequence', 'status', 'webhookId'],
      noticePeriod: ['expiresAt', 'renewals', 'since'],
    },
    // Fairness and bounds (docs/api.md section 11): the notifications state's optional `failing`
    // (consecutive failures, the probe), and an open notification redelivered by reference has a null
    // body and a `createdRevision`. Neither shows in the sample state, whose keys are those of 5.
    6: {
      instance: [
        'accountId',
        'createdAt',
        'disabledReason',
        'encryptedSigningSecret',
        'events',
        'expiresAt',
        'instanceId',
        'packageId',
        'previousSigningSecret',
        'status',
        'tokenHash',
        'webhookOn',
        'webhookUrl',
      ],
      notifications: ['lastSequence', 'notices', 'open'],
      open: ['attempts', 'body', 'nextAttemptAt', 'sequence', 'status', 'webhookId'],
      noticePeriod: ['expiresAt', 'renewals', 'since'],
    },
  };
// The same keys as 6: an open notification's status value is spelled 'deadLettered' from 7 on.
SHAPES[7] = SHAPES[6];
// Labels and connection states (docs/api.md 13.1, 13.2).
SHAPES[8] = {
  ...SHAPES[7],
  instance: [...SHAPES[7].instance, 'connectionSince', 'connectionState', 'label'].sort(),
};
// Receivers' options (section 12): the scheme, headers and key pair; `failing` gains `since` and
// each entry `setAt` (neither shows in the sample's keys).
SHAPES[9] = {
  ...SHAPES[8],
  instance: [...SHAPES[8].instance, 'previousSigningKey', 'signatureScheme', 'signingKey', 'webhookHeaders'].sort(),
};
// The failing endpoint's probe (docs/api.md section 11): `failing` names it (`probe`) instead of the
// notification that failed last (`last`); neither shows in the sample's keys.
SHAPES[10] = SHAPES[9];

describe('notifier snapshots', () => {
  it('are written for the state shapes of SNAPSHOT_VERSION', () => {
    const [entry] = populated().entries();
    expect({
      instance: keysOf(entry.instance!.state),
      notifications: keysOf(entry.notifications!.state),
      open: keysOf(entry.notifications!.state.open['msg_1']),
      noticePeriod: keysOf(entry.noticePeriod!),
    }).toEqual(SHAPES[SNAPSHOT_VERSION]);
  });

  it('restore a model that equals the one taken, through JSON as the store keeps them', () => {
    const taken = populated();
    const stored = JSON.parse(JSON.stringify(taken.entries())) as SnapshotEntry[];
    const restored = new NotifierModel(1, 0);
    restored.restore(stored);
    expect(restored.entries()).toEqual(taken.entries());
    expect(restored.instance(I)).toEqual(taken.instance(I));
    expect(restored.notifierState(I)).toEqual(taken.notifierState(I));
    expect(restored.notificationsOf(I).state.notices).toEqual({
      expiresAt: '2026-01-04T00:00:00.000Z',
      keys: ['expiring@24'],
    });
    // With the position of the view's last event, so that a conflict after the restart folds forward.
    expect(restored.notificationsOf(I)).toEqual({
      state: taken.notificationsOf(I).state,
      revision: 1n,
      position: taken.notificationsOf(I).position,
    });
    expect(restored.notificationsOf(I).position).toEqual(expect.any(BigInt));
    expect([...restored.instancesWithOpenNotifications()]).toEqual([I]);
    // Events the snapshot already holds are not applied twice.
    expect(
      restored.applyInstanceEvent(
        I,
        recorded(`instance-${I}`, 3n, 'WebhookCleared', { instanceId: I, clearedAt: '2026-01-02T00:00:00.000Z' }),
      ),
    ).toBe(false);
  });

  it('restore a snapshot written before positions were kept, without a position', () => {
    const stored = JSON.parse(JSON.stringify(populated().entries())) as SnapshotEntry[];
    delete stored[0].notifications!.position;
    const restored = new NotifierModel(1, 0);
    restored.restore(stored);
    expect(restored.notificationsOf(I).revision).toBe(1n);
    expect('position' in restored.notificationsOf(I)).toBe(false);
  });
});
