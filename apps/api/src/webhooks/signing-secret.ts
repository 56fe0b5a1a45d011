import { Injectable } from '@nestjs/common';
import { newSigningKeyPair, SecretBox } from '@gw/application';
import type { SigningKeyPair } from '@gw/domain-instances';

/** `{ signingSecret }` once the instance has one (docs/api.md section 6), else nothing. */
export function signingSecretField(secrets: SecretBox, encrypted: string | null): { signingSecret?: string } {
  return encrypted ? { signingSecret: secrets.open(encrypted) } : {};
}

/** Draws Ed25519 key pairs (docs/api.md section 12) with the private key sealed at once: it is never
 * stored, logged or answered in clear. */
@Injectable()
export class SigningKeyDraws {
  constructor(private readonly secrets: SecretBox) {}

  draw(): SigningKeyPair {
    const { privateKey, publicKey } = newSigningKeyPair();
    return { sealedPrivateKey: this.secrets.seal(privateKey), publicKey };
  }
}
