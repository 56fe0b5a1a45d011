import type { SecretBox } from '@gw/application';

/** `{ signingSecret }` once the instance has one (docs/api.md section 6), else nothing. */
export function signingSecretField(secrets: SecretBox, encrypted: string | null): { signingSecret?: string } {
  return encrypted ? { signingSecret: secrets.open(encrypted) } : {};
}
