import type { ReceiverHeaders } from '@gw/domain-instances';
import type { SecretBox } from './secret-box';

/** A receiver's headers in clear: `[name, value]` in the order given. */
export type HeaderPairs = ReadonlyArray<readonly [string, string]>;

/**
 * The headers as the domain holds them (docs/api.md section 12): names in clear, the list sealed,
 * and a keyed fingerprint that does not depend on the names' case or order, so that the same
 * headers sent again are recognised as the same. An empty list is "no headers".
 */
export function sealHeaders(secrets: SecretBox, pairs: HeaderPairs): ReceiverHeaders {
  if (pairs.length === 0) return { names: [], sealed: null, fingerprint: null };
  const canonical = pairs
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    names: pairs.map(([name]) => name),
    sealed: secrets.seal(JSON.stringify(pairs)),
    fingerprint: secrets.fingerprint(JSON.stringify(canonical)),
  };
}

/** The headers in clear, for an attempt; none for null. Throws as SecretBox.open does. */
export function openHeaders(secrets: SecretBox, sealed: string | null): Array<[string, string]> {
  return sealed === null ? [] : (JSON.parse(secrets.open(sealed)) as Array<[string, string]>);
}
