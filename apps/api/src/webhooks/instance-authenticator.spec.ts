import { commandScope, hashSecret } from '@gw/application';
import type { InstanceState } from '@gw/domain-instances';
import { Refusal } from '@gw/contract';
import { RateLimits } from '../rate-limits/rate-limits';
import { InstanceAuthenticator } from './instance-authenticator';

const codesOf = (work: () => void): string[] => {
  try {
    work();
  } catch (error) {
    // A rate limit is answered 0010 with Retry-After by the HTTP layer.
    if (error instanceof Refusal && error.kind !== 'domain') return error.violations.map((v) => v.code);
    throw error;
  }
  return [];
};

describe('instance authentication of a command', () => {
  const state = { status: 'created', tokenHash: hashSecret('gwt_right') } as InstanceState;
  const auth = () =>
    new InstanceAuthenticator(
      new RateLimits({ accountPerMinute: 0, instancePerMinute: 1, authFailuresPerMinute: 0, ingestInFlight: 0 }),
    );

  it("spends the instance's budget once per request, however often the command decides again", () => {
    const authenticator = auth();
    const request = commandScope();
    expect(codesOf(() => authenticator.authenticateCommand('i1', 'gwt_right', state, request))).toEqual([]);
    expect(codesOf(() => authenticator.authenticateCommand('i1', 'gwt_right', state, request))).toEqual([]);
    // A second request finds the budget of one a minute spent.
    expect(codesOf(() => authenticator.authenticateCommand('i1', 'gwt_right', state, commandScope()))).toEqual([
      '0010',
    ]);
  });

  it('refuses a wrong token on every decision, the first and the later ones', () => {
    const authenticator = auth();
    const request = commandScope();
    expect(codesOf(() => authenticator.authenticateCommand('i1', 'gwt_wrong', state, request))).toEqual(['0006']);
    expect(codesOf(() => authenticator.authenticateCommand('i1', 'gwt_wrong', { status: 'none' }, request))).toEqual([
      '0006',
    ]);
  });
});
