import type { RecordedEvent } from '@gw/event-store';
import { HIDDEN, hideSealed } from './hide-sealed';
import { ERASED, formatEntry, timelineEntry, type Data, type Openers } from './timeline-facts';

const SEALED = `pd2.inst_a.20261123.0a1b2c3d.${'Q'.repeat(44)}`;
const SECRET_BOX = `v1.${'x'.repeat(60)}`;

function recorded(type: string, data: unknown, position = 7n): RecordedEvent {
  return {
    id: 'e',
    streamName: 'instance-inst_a',
    revision: 0n,
    position,
    type,
    data,
    metadata: {},
    recordedAt: '2026-11-23T06:00:00.000Z',
  };
}

// Opens a message's or ack's `sealed` personal fields as PersonalData does: in clear while its key
// exists, each `[erased]` once it is gone.
const PERSONAL = { chatId: '4915100000001@c.us', from: '4915100000001@c.us', senderName: 'Bob', body: 'Hello, Bob' };
function openers(kept: boolean): Openers {
  const open = async (_instanceId: string, { sealed, ...rest }: Data) => {
    expect(sealed).toBe(SEALED);
    const fields = 'status' in rest ? { chatId: PERSONAL.chatId } : PERSONAL;
    return {
      ...rest,
      ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, kept ? value : ERASED])),
    };
  };
  return { message: open, ack: open, email: async () => (kept ? 'ann@example.com' : ERASED) };
}
const open = openers(true);
const erased = openers(false);

describe('audit timeline facts', () => {
  it('shows what an instance event says, and never its token hash or sealed secret', async () => {
    const created = await timelineEntry(
      recorded('InstanceCreated', {
        instanceId: 'inst_a',
        accountId: 'f'.repeat(32),
        packageId: 'monthly',
        tokenHash: 'sha256:abc',
        createdAt: 'c',
        expiresAt: '2026-12-23T06:00:00.000Z',
      }),
      open,
    );
    expect(created).toEqual({
      at: '2026-11-23T06:00:00.000Z',
      stream: 'instance-inst_a',
      position: '7',
      type: 'InstanceCreated',
      data: { instanceid: 'inst_a', package: 'monthly', expiresAt: '2026-12-23T06:00:00.000Z' },
    });
    const rotated = await timelineEntry(
      recorded('SigningSecretRotated', { encryptedSecret: SECRET_BOX, previousValidUntil: null }),
      open,
    );
    expect(JSON.stringify(rotated)).not.toContain(SECRET_BOX);
    expect(formatEntry(created)).toBe(
      '2026-11-23T06:00:00.000Z InstanceCreated            instanceid=inst_a package=monthly expiresAt=2026-12-23T06:00:00.000Z',
    );
  });

  it('describes labels and connection states (docs/api.md 13.1, 13.2), and a state notification', async () => {
    const labelled = await timelineEntry(
      recorded('InstanceLabelSet', { instanceId: 'inst_a', label: 'shop', setAt: 's' }),
      open,
    );
    expect(labelled.data).toEqual({ label: 'shop' });
    const state = await timelineEntry(
      recorded('InstanceStateReported', {
        instanceId: 'inst_a',
        state: 'qr',
        since: '2026-01-01T00:00:00.000Z',
        reportedAt: 'r',
      }),
      open,
    );
    expect(formatEntry(state)).toContain('state=qr since=2026-01-01T00:00:00.000Z');
    const made = await timelineEntry(
      recorded('NotificationCreated', {
        sequence: 3,
        webhookId: 'msg_1',
        body: { instanceId: 'inst_a', sequence: 3, label: 'shop', state: { state: 'qr', since: 's' } },
      }),
      open,
    );
    expect(made.data).toEqual({ sequence: 3, webhookId: 'msg_1', carries: 'connection state (qr)' });
  });

  it("opens a message's personal fields, or shows them as erased", async () => {
    const message = { id: 'm1', fromMe: false, type: 'chat', time: 1, sealed: SEALED };
    const event = recorded('MessageReceived', { instanceId: 'inst_a', message, receivedAt: 'r' });
    const shown = await timelineEntry(event, open);
    expect(shown.data).toEqual({ id: 'm1', fromMe: false, messageType: 'chat', time: 1, ...PERSONAL });
    expect(formatEntry(shown)).toContain('senderName=Bob messageType=chat body="Hello, Bob" time=1');
    const gone = await timelineEntry(event, erased);
    expect(gone.data).toMatchObject({ body: ERASED, from: ERASED, senderName: ERASED, chatId: ERASED });
    expect(formatEntry(gone)).toContain('body=[erased]');
    const ack = recorded('AckReceived', {
      instanceId: 'inst_a',
      ack: { id: 'm1', status: 'read', time: 2, sealed: SEALED },
      receivedAt: 'r',
    });
    expect((await timelineEntry(ack, open)).data).toEqual({
      id: 'm1',
      chatId: PERSONAL.chatId,
      status: 'read',
      time: 2,
    });
    expect((await timelineEntry(ack, erased)).data).toEqual({ id: 'm1', chatId: ERASED, status: 'read', time: 2 });
    const registered = recorded('AccountRegistered', {
      accountId: 'f'.repeat(32),
      email: SECRET_BOX,
      apiKeyHash: 'sha256:x',
      registeredAt: 'r',
    });
    expect((await timelineEntry(registered, open)).data).toEqual({ email: 'ann@example.com' });
    expect((await timelineEntry(registered, erased)).data).toEqual({ email: ERASED });
  });

  it("shows a notification's sequence and outcome, not its body", async () => {
    const body = {
      instanceId: 'inst_a',
      sequence: 3,
      messages: [{ id: 'm1', fromMe: false, type: 'chat', time: 1, sealed: SEALED }],
    };
    const created = await timelineEntry(
      recorded('NotificationCreated', {
        instanceId: 'inst_a',
        webhookId: 'msg_1',
        sequence: 3,
        body,
        createdAt: 'c',
        sourceEventIds: ['x'],
      }),
      open,
    );
    expect(created.data).toEqual({ sequence: 3, webhookId: 'msg_1', carries: '1 message(s)' });
    const failed = await timelineEntry(
      recorded('DeliveryAttemptFailed', {
        sequence: 3,
        attempt: 1,
        status: 503,
        error: 'HTTP 503',
        nextAttemptAt: 'n',
      }),
      open,
    );
    expect(formatEntry(failed)).toContain('sequence=3 attempt=1 outcome=failed status=503 error="HTTP 503"');
    // Spelled as getNotifications spells the state (docs/api.md 8.7).
    const deadLettered = await timelineEntry(recorded('NotificationDeadLettered', { sequence: 3, at: 'd' }), open);
    expect(deadLettered.data).toEqual({ sequence: 3, outcome: 'deadLettered' });
  });

  it('shows an unknown event type by its name alone', async () => {
    expect((await timelineEntry(recorded('SomethingNew', { secret: 'x' }), open)).data).toEqual({});
  });
});

describe('events list hides secrets, hashes and sealed values', () => {
  it('by field name and by sealed form, at any depth', () => {
    const shown = hideSealed({
      tokenHash: 'sha256:abc',
      encryptedSecret: SECRET_BOX,
      nested: [{ body: SEALED, chatId: 'plain' }],
      noticeKey: 'expiring@72',
      url: 'https://example.com/v1.hook',
      chain: 'ab12',
    });
    expect(shown).toEqual({
      tokenHash: HIDDEN,
      encryptedSecret: HIDDEN,
      nested: [{ body: HIDDEN, chatId: 'plain' }],
      noticeKey: 'expiring@72',
      url: 'https://example.com/v1.hook',
      chain: HIDDEN,
    });
  });
});
