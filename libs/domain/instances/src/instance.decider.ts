import { Codes, type Violation } from '@gw/contract';
import { addDays, assertNever, maxIso, refuse, refuseIfAny, type Decider } from '@gw/domain-core';
import type { InstanceEvent } from './instance.events';
import { evolveInstance, initialInstanceState, instanceStatus, type InstanceState } from './instance.state';
import type { PackageDefinition } from './package-catalogue';

export type CreateInstance = {
  type: 'CreateInstance';
  data: {
    instanceId: string;
    accountEmail: string;
    packageId: string;
    packages: readonly PackageDefinition[];
    tokenHash: string;
    now: string;
  };
};

export type RenewInstance = {
  type: 'RenewInstance';
  data: { accountEmail: string; packageId: string; packages: readonly PackageDefinition[]; now: string };
};

/**
 * Registers `url`, or switches delivery off when it is empty. `urlRefusal` carries the adapter's
 * verdict on where the URL's host points (a non-public address), so that the domain reports it beside
 * its own refusals. `newSigningSecret` is a freshly drawn, encrypted secret; it is needed (and used)
 * only by a first registration, when the instance has none yet (see `needsNewSigningSecret`).
 */
export type ChangeWebhook = {
  type: 'ChangeWebhook';
  data: { url: string; urlRefusal?: string; newSigningSecret?: string; now: string };
};

/** The receiver answered 410 Gone to a delivery for `url`. */
export type DisableWebhookForReceiver = {
  type: 'DisableWebhookForReceiver';
  data: { url: string; reason: string; now: string };
};

export type InstanceCommand = CreateInstance | RenewInstance | ChangeWebhook | DisableWebhookForReceiver;

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
  return [
    {
      type: 'InstanceCreated',
      data: {
        instanceId: data.instanceId,
        accountEmail: data.accountEmail,
        packageId: pkg.packageid,
        tokenHash: data.tokenHash,
        createdAt: data.now,
        expiresAt: addDays(data.now, pkg.durationDays),
      },
    },
  ];
}

function decideRenew({ data }: RenewInstance, state: InstanceState): InstanceEvent[] {
  const violations: Violation[] = [];
  const pkg = findPackage(data.packages, data.packageId);
  if (!pkg) violations.push(unknownPackage(data.packageId));
  // Another account's instance is reported exactly like a missing one, so ids cannot be probed.
  if (state.status !== 'created' || state.accountEmail !== data.accountEmail) {
    violations.push({ code: Codes.NoSuchInstance, field: 'instanceid', message: 'no such instance in this account' });
  }
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

function decideChangeWebhook({ data }: ChangeWebhook, state: InstanceState): InstanceEvent[] {
  if (state.status !== 'created') {
    return refuse({ code: Codes.InstanceAuthFailed, field: 'token', message: 'unknown instanceid or wrong token' });
  }
  const violations: Violation[] = [];
  if (instanceStatus(state.expiresAt, data.now) === 'expired') {
    violations.push({ code: Codes.InstanceExpired, field: 'instanceid', message: 'the instance has expired; renew it first' });
  }
  if (data.url !== '' && data.urlRefusal) {
    violations.push({ code: Codes.WebhookUrlRefused, field: 'webhookUrl', message: data.urlRefusal });
  }
  refuseIfAny(violations);

  if (data.url === '') {
    if (state.webhookUrl === '' && !state.webhookOn) return [];
    return [{ type: 'WebhookCleared', data: { instanceId: state.instanceId, clearedAt: data.now } }];
  }
  if (data.url === state.webhookUrl && state.webhookOn) return [];
  const set: InstanceEvent = { type: 'WebhookSet', data: { instanceId: state.instanceId, url: data.url, setAt: data.now } };
  if (state.encryptedSigningSecret !== null) return [set];
  if (data.newSigningSecret === undefined) throw new Error('ChangeWebhook: a first registration needs newSigningSecret');
  return [
    {
      type: 'SigningSecretIssued',
      data: { instanceId: state.instanceId, encryptedSecret: data.newSigningSecret, issuedAt: data.now },
    },
    set,
  ];
}

/** Whether `ChangeWebhook` to `url` may need a new signing secret: a non-empty URL for an instance
 * that has none yet. Drawing one costs a random draw and an encryption, so callers skip it otherwise. */
export function needsNewSigningSecret(state: InstanceState, url: string): boolean {
  return url !== '' && (state.status !== 'created' || state.encryptedSigningSecret === null);
}

function decideDisable({ data }: DisableWebhookForReceiver, state: InstanceState): InstanceEvent[] {
  // A 410 for a URL that is no longer registered, or already off, changes nothing.
  if (state.status !== 'created' || !state.webhookOn || state.webhookUrl !== data.url) return [];
  return [
    {
      type: 'WebhookDisabledByReceiver',
      data: { instanceId: state.instanceId, url: data.url, reason: data.reason, disabledAt: data.now },
    },
  ];
}

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
      default:
        return assertNever(command);
    }
  },
};
