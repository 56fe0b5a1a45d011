import { Codes, type Violation } from '@gw/contract';
import { addDays, assertNever, maxIso, refuse, refuseIfAny, type Decider } from '@gw/domain-core';
import { decideReportState, decideSetLabel } from './instance-details.decide';
import type { InstanceEvent } from './instance.events';
import { evolveInstance, initialInstanceState, type CreatedInstance, type InstanceState } from './instance.state';
import type {
  CreateInstance,
  DeleteInstance,
  InstanceCommand,
  PrepareTestNotification,
  RenewInstance,
  ResetInstanceToken,
} from './instance.commands';
import {
  decideChangeWebhook,
  decideDisable,
  decideDisableForFailing,
  decideRotate,
  webhookChecks,
} from './instance-webhook.decide';
import type { PackageDefinition } from './package-catalogue';

/** Raised when a freshly drawn instance id is already taken; the caller draws another. */
export class InstanceIdTaken extends Error {
  constructor(readonly instanceId: string) {
    super(`instance id ${instanceId} is already taken`);
    this.name = 'InstanceIdTaken';
  }
}

function findPackage(packages: readonly PackageDefinition[], packageId: string): PackageDefinition | undefined {
  return packages.find((p) => p.packageid === packageId);
}

const unknownPackage = (packageId: string): Violation => ({
  code: Codes.UnknownPackage,
  field: 'packageid',
  message: `unknown packageid "${packageId}"`,
});

function decideCreate({ data }: CreateInstance, state: InstanceState): InstanceEvent[] {
  if (state.status !== 'none') throw new InstanceIdTaken(data.instanceId);
  const pkg = findPackage(data.packages, data.packageId);
  if (!pkg) return refuse(unknownPackage(data.packageId));
  // A label given at creation is its own event, as a later one is: InstanceCreated keeps its meaning.
  const labelled: InstanceEvent[] = data.label
    ? [{ type: 'InstanceLabelSet', data: { instanceId: data.instanceId, label: data.label, setAt: data.now } }]
    : [];
  return [
    {
      type: 'InstanceCreated',
      data: {
        instanceId: data.instanceId,
        accountId: data.accountId,
        packageId: pkg.packageid,
        tokenHash: data.tokenHash,
        createdAt: data.now,
        expiresAt: addDays(data.now, pkg.durationDays),
      },
    },
    ...labelled,
  ];
}

const noSuchInstance: Violation = {
  code: Codes.NoSuchInstance,
  field: 'instanceid',
  message: 'no such instance in this account',
};

/** Whether the account owns the instance. Another account's instance, and a deleted one, are reported
 * exactly like a missing one (0005), so ids cannot be probed. */
function ownedBy(state: InstanceState, accountId: string): state is CreatedInstance {
  return state.status === 'created' && state.accountId === accountId;
}

function decideRenew({ data }: RenewInstance, state: InstanceState): InstanceEvent[] {
  const violations: Violation[] = [];
  const pkg = findPackage(data.packages, data.packageId);
  if (!pkg) violations.push(unknownPackage(data.packageId));
  if (!ownedBy(state, data.accountId)) violations.push(noSuchInstance);
  refuseIfAny(violations);
  if (state.status !== 'created' || !pkg) return [];
  return [
    {
      type: 'InstanceRenewed',
      data: {
        instanceId: state.instanceId,
        packageId: pkg.packageid,
        renewedAt: data.now,
        expiresAt: addDays(maxIso(data.now, state.expiresAt), pkg.durationDays),
      },
    },
  ];
}

function decideDelete({ data }: DeleteInstance, state: InstanceState): InstanceEvent[] {
  if (!ownedBy(state, data.accountId)) return refuse(noSuchInstance);
  return [{ type: 'InstanceDeleted', data: { instanceId: state.instanceId, deletedAt: data.now } }];
}

function decideResetToken({ data }: ResetInstanceToken, state: InstanceState): InstanceEvent[] {
  // An expired instance too: its owner may need the token to renew and read its history.
  if (!ownedBy(state, data.accountId)) return refuse(noSuchInstance);
  return [
    {
      type: 'InstanceTokenReset',
      data: { instanceId: state.instanceId, tokenHash: data.tokenHash, resetAt: data.now },
    },
  ];
}

function decidePrepareTest({ data }: PrepareTestNotification, state: InstanceState): InstanceEvent[] {
  const violations = webhookChecks(state, data);
  // Not created: webhookChecks refused it (0006), and nothing else is checked.
  if (state.status !== 'created') return refuse(violations[0]);
  if (data.url === '' && (state.webhookUrl === '' || !state.webhookOn)) {
    const why = state.webhookUrl === '' ? 'no webhook URL is registered' : 'the receiver switched delivery off';
    violations.push({ code: Codes.DeliveryOff, field: 'webhookUrl', message: `delivery is off: ${why}` });
  }
  refuseIfAny(violations);
  if (state.encryptedSigningSecret !== null) return [];
  if (data.newSigningSecret === undefined)
    throw new Error('PrepareTestNotification: an instance without a secret needs newSigningSecret');
  return [
    {
      type: 'SigningSecretIssued',
      data: { instanceId: state.instanceId, encryptedSecret: data.newSigningSecret, issuedAt: data.now },
    },
  ];
}

/** The instance's decider: creation, renewal, webhooks, signing secrets, tokens and deletion. */
export const instanceDecider: Decider<InstanceCommand, InstanceEvent, InstanceState> = {
  initialState: initialInstanceState,
  evolve: evolveInstance,
  decide(command, state) {
    switch (command.type) {
      case 'CreateInstance':
        return decideCreate(command, state);
      case 'RenewInstance':
        return decideRenew(command, state);
      case 'ChangeWebhook':
        return decideChangeWebhook(command, state);
      case 'DisableWebhookForReceiver':
        return decideDisable(command, state);
      case 'DisableWebhookForFailing':
        return decideDisableForFailing(command, state);
      case 'DeleteInstance':
        return decideDelete(command, state);
      case 'ResetInstanceToken':
        return decideResetToken(command, state);
      case 'RotateSigningSecret':
        return decideRotate(command, state);
      case 'PrepareTestNotification':
        return decidePrepareTest(command, state);
      case 'SetInstanceLabel':
        return decideSetLabel(command, state);
      case 'ReportInstanceState':
        return decideReportState(command, state);
      default:
        return assertNever(command);
    }
  },
};
