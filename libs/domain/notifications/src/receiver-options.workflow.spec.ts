import { workflowSpec } from '@gw/domain-core/testing';
import type { InstanceEvent } from '@gw/domain-instances';
import { notifierWorkflow, type NotifierInput } from './notifier.workflow';

// docs/api.md section 12, as the notifier carries it out.
const spec = workflowSpec(notifierWorkflow);
const I = 'i1';
const t0 = '2026-01-01T00:00:00.000Z';
const url = 'https://receiver.example/hook';
const recorded = (event: InstanceEvent, now = t0): NotifierInput => ({
  type: 'InstanceEventRecorded',
  data: { event, sourceEventId: `${event.type}-${now}`, now },
});
const created = recorded({
  type: 'InstanceCreated',
  data: {
    instanceId: I,
    accountId: 'a',
    packageId: 'trial',
    tokenHash: 'th',
    createdAt: t0,
    expiresAt: '2026-02-01T00:00:00.000Z',
  },
});
const secret = recorded({
  type: 'SigningSecretIssued',
  data: { instanceId: I, encryptedSecret: 'sealed', issuedAt: t0 },
});
const setAt = (at: string) => recorded({ type: 'WebhookSet', data: { instanceId: I, url, setAt: at } }, at);
const headers = recorded({
  type: 'WebhookHeadersSet',
  data: { instanceId: I, names: ['Authorization'], sealedHeaders: 'sealed-headers', headersHash: 'fp', setAt: t0 },
});
const keyPair = recorded({
  type: 'SigningKeyPairIssued',
  data: { instanceId: I, sealedPrivateKey: 'sealed-key', publicKey: 'whpk_x', issuedAt: t0 },
});
const ed25519 = recorded({ type: 'SignatureSchemeChosen', data: { instanceId: I, scheme: 'ed25519', chosenAt: t0 } });
const due: NotifierInput = { type: 'AttemptDue', data: { instanceId: I, now: '2026-01-01T01:00:00.000Z' } };
const answered = (now: string, failingSince: string | null, status = 500, disableAfterHours = 120): NotifierInput => ({
  type: 'ReceiverAnswered',
  data: { url, status, now, failingSince, disableAfterHours },
});

describe('the notifier workflow: receivers options (section 12)', () => {
  it("sends with the receiver's sealed headers and, under ed25519, the sealed private key", () => {
    spec
      .given([created, secret, setAt(t0), headers, keyPair, ed25519])
      .when(due)
      .then([
        { type: 'Send', data: { url, encryptedSigningSecrets: ['sealed-key'], sealedHeaders: 'sealed-headers' } },
      ]);
  });

  it('switches delivery off once failures have gone on for WEBHOOK_DISABLE_AFTER_HOURS, not before', () => {
    const fiveDaysOn = '2026-01-06T00:00:00.000Z';
    spec
      .given([created, secret, setAt(t0)])
      .when(answered('2026-01-05T23:59:59.000Z', t0))
      .then([]);
    spec
      .given([created, secret, setAt(t0)])
      .when(answered(fiveDaysOn, t0))
      .then([{ type: 'DisableWebhookForFailing', data: { url, failingSince: t0, now: fiveDaysOn } }]);
    // A success in between (failingSince null), 0 hours (never), and a 410 (its own reason).
    spec
      .given([created, secret, setAt(t0)])
      .when(answered(fiveDaysOn, null))
      .then([]);
    spec
      .given([created, secret, setAt(t0)])
      .when(answered(fiveDaysOn, t0, 500, 0))
      .then([]);
    expect(notifierWorkflow.decide(answered(fiveDaysOn, t0, 410), notifierWorkflow.initialState())[0].type).toBe(
      'DisableWebhookForReceiver',
    );
  });

  it('counts failures only from the last registration of a URL', () => {
    const again = '2026-01-05T00:00:00.000Z';
    spec
      .given([created, secret, setAt(t0), setAt(again)])
      .when(answered('2026-01-06T00:00:00.000Z', t0))
      .then([]);
  });

  it('cancels what is pending when failing switches delivery off, as a 410 does', () => {
    spec
      .given([created, secret, setAt(t0)])
      .when(
        recorded(
          { type: 'WebhookDisabledForFailing', data: { instanceId: I, url, failingSince: t0, disabledAt: t0 } },
          t0,
        ),
      )
      .then([
        {
          type: 'CancelPending',
          data: { instanceId: I, reason: 'delivery was switched off: the receiver kept failing', now: t0 },
        },
      ]);
  });
});
