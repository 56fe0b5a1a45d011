import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { nullable, object, optional, text, timestamp } from '../../openapi/json-schema';
import { RotateSigningSecretCommand, type RotateSigningSecretResult } from './rotate-signing-secret.command';
import { RotateSigningSecretDto } from './rotate-signing-secret.dto';
import { RotateSigningSecretHandler } from './rotate-signing-secret.handler';

/** docs/api.md 8.5. */
export const rotateSigningSecret = operation({
  handler: RotateSigningSecretHandler,
  routes: [
    route({
      name: 'rotateSigningSecret',
      host: 'instance',
      path: '/rotateSigningSecret',
      methods: ['GET', 'POST'],
      dto: RotateSigningSecretDto,
      build: (p) => new RotateSigningSecretCommand(p.instanceid, p.token),
    }),
  ],
  answer: {
    summary: 'Creates a new signing secret; the previous one also signs for a while (8.5)',
    fields: object<RotateSigningSecretResult>({
      signingSecret: text('the new whsec_ secret (under ed25519: the current one, unchanged)'),
      previousValidUntil: nullable(
        timestamp('until when the previous secret (under ed25519: key pair) also signs; null for the first'),
      ),
      signingPublicKey: optional(text("under ed25519: the new key pair's whpk_ public key (section 12)")),
    }),
    refusals: [Codes.InstanceAuthFailed, Codes.InstanceExpired, Codes.ConcurrentChange],
  },
});
