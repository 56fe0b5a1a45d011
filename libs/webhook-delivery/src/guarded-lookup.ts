import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { NOT_A_PUBLIC_ADDRESS, nonPublicReason } from '@gw/net-policy';

/** A connection was refused because the target address is not publicly routable. */
export class AddressNotAllowed extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor(reason: string) {
    super(`address not allowed: ${reason}`);
    this.name = 'AddressNotAllowed';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request: resolves the host, refuses it when any address is not publicly
 * routable, and hands the socket exactly the addresses it checked. Because the check happens inside
 * the connection's own resolution, a DNS answer that changes between check and connect (rebinding)
 * cannot slip through.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      if (!allowPrivate) {
        // The log line an instance's owner reads does not say what the name resolved to.
        for (const { address } of list) {
          if (nonPublicReason(address) !== null) return callback(new AddressNotAllowed(NOT_A_PUBLIC_ADDRESS), []);
        }
      }
      if (list.length === 0)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}
