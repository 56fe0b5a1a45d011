import { deciderSpec } from '@gw/domain-core/testing';
import { AccountAlreadyExists, accountDecider } from './account.decider';

const spec = deciderSpec(accountDecider);
const now = '2026-01-01T00:00:00.000Z';

describe('account decider', () => {
  it('registers a new account under its lowercased e-mail address', () => {
    spec
      .given([])
      .when({ type: 'RegisterAccount', data: { email: ' Ann@Example.COM ', apiKeyHash: 'h1', now } })
      .then([
        { type: 'AccountRegistered', data: { email: 'ann@example.com', apiKeyHash: 'h1', registeredAt: now } },
      ]);
  });

  it('refuses to register an e-mail address twice', () => {
    spec
      .given([{ type: 'AccountRegistered', data: { email: 'ann@example.com', apiKeyHash: 'h1', registeredAt: now } }])
      .when({ type: 'RegisterAccount', data: { email: 'ANN@example.com', apiKeyHash: 'h2', now } })
      .thenThrows(AccountAlreadyExists);
  });
});
