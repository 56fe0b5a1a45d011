import type { AccountState } from '@gw/domain-accounts';
import { accountStream } from '../streams';

/**
 * A stored account history as an adapter hands it over: the JSON texts of one AccountRegistered
 * (the shape of a typical account stream) whose key hash is all zeros. Parsed again on each use, as
 * a real read parses its rows.
 */
const DECOY_ROWS: ReadonlyArray<{ type: string; data: string; metadata: string }> = [
  {
    type: 'AccountRegistered',
    data: JSON.stringify({
      accountId: '0'.repeat(32),
      email: 'v1.decoy',
      apiKeyHash: `sha256:${'0'.repeat(64)}`,
      registeredAt: '2026-01-01T00:00:00.000Z',
    }),
    metadata: JSON.stringify({ schemaVersion: 1, chain: '0'.repeat(64) }),
  },
];

/**
 * The state of an account that does not exist, reached by the same work as a real one's: its stored
 * history parsed and folded with the account stream's own `evolve`. An unknown address (or an
 * account's address that no stream holds) thus costs what a known one does, and its presented key
 * is then compared with the decoy's hash, so that timing does not tell an unknown address from a
 * wrong key (docs/api.md section 2, Timing). The decoy can never authenticate: the caller refuses
 * whatever the comparison says.
 */
export function decoyAccountState(): AccountState {
  let state = accountStream.initialState();
  for (const row of DECOY_ROWS) {
    const event = {
      type: row.type,
      data: JSON.parse(row.data) as unknown,
      metadata: JSON.parse(row.metadata) as unknown,
    };
    if (accountStream.isEvent(event)) state = accountStream.evolve(state, event);
  }
  return state;
}
