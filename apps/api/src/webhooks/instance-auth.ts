import { Codes } from '@gw/contract';
import { RequestRefused } from '../http/contract-error';
import { secretMatches } from '@gw/application';

/** Stage 2 for the instance host: the token must match the instance's; failures never say which. */
export function authenticateInstance(token: string, tokenHash: string | undefined): void {
  if (!secretMatches(token, tokenHash)) {
    throw new RequestRefused([{ code: Codes.InstanceAuthFailed, message: 'unknown instanceid or wrong token' }]);
  }
}
