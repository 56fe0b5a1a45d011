import { Command } from '@nestjs/cqrs';
export class RotateSigningSecretCommand extends Command<RotateSigningSecretResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
  ) {
    super();
  }
}

/** docs/api.md 8.5: the new secret in clear (as getWebhookStatus shows it), and until when the one it
 * replaced still signs; null when it is the instance's first. Under `ed25519` (section 12) the key
 * pair is what rotates: `signingPublicKey` is the new public key (present only then), `signingSecret`
 * the HMAC secret, unchanged. */
export interface RotateSigningSecretResult {
  signingSecret: string;
  previousValidUntil: string | null;
  signingPublicKey?: string;
}
