import { assertNever, isBefore } from '@gw/domain-core';
import type { InstanceEvent } from './instance.events';

export type InstanceState =
  | { status: 'none' }
  | {
      status: 'created';
      instanceId: string;
      accountEmail: string;
      packageId: string;
      tokenHash: string;
      createdAt: string;
      expiresAt: string;
      /** The registered URL, or '' when none is registered. */
      webhookUrl: string;
      /** Whether the owner (and the receiver) want delivery; expiry is applied on top. */
      webhookOn: boolean;
      disabledReason: string | null;
      /** The webhook signing secret, encrypted; null until the first registration. */
      encryptedSigningSecret: string | null;
    };

export type CreatedInstance = Extract<InstanceState, { status: 'created' }>;

export const initialInstanceState = (): InstanceState => ({ status: 'none' });

export function evolveInstance(state: InstanceState, event: InstanceEvent): InstanceState {
  switch (event.type) {
    case 'InstanceCreated':
      return {
        status: 'created',
        ...event.data,
        webhookUrl: '',
        webhookOn: false,
        disabledReason: null,
        encryptedSigningSecret: null,
      };
    case 'InstanceRenewed':
      if (state.status !== 'created') return state;
      return { ...state, packageId: event.data.packageId, expiresAt: event.data.expiresAt };
    case 'SigningSecretIssued':
      if (state.status !== 'created') return state;
      return { ...state, encryptedSigningSecret: event.data.encryptedSecret };
    case 'WebhookSet':
      if (state.status !== 'created') return state;
      return { ...state, webhookUrl: event.data.url, webhookOn: true, disabledReason: null };
    case 'WebhookCleared':
      if (state.status !== 'created') return state;
      return { ...state, webhookUrl: '', webhookOn: false, disabledReason: null };
    case 'WebhookDisabledByReceiver':
      if (state.status !== 'created') return state;
      return { ...state, webhookOn: false, disabledReason: event.data.reason };
    default:
      return assertNever(event);
  }
}

/** `active` while now < expiresAt, `expired` afterwards (docs/api.md section 4). */
export function instanceStatus(expiresAt: string, now: string): 'active' | 'expired' {
  return isBefore(now, expiresAt) ? 'active' : 'expired';
}

/** Delivery is effectively on only while a URL is registered, wanted, and the instance is active. */
export function deliveryEnabled(state: CreatedInstance, now: string): boolean {
  return state.webhookOn && state.webhookUrl !== '' && instanceStatus(state.expiresAt, now) === 'active';
}
