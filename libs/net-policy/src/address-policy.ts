import { BlockList, isIP } from 'node:net';

/**
 * Ranges that are not publicly routable (IANA special-purpose registries). IPv4-mapped, NAT64 and
 * 6to4 IPv6 forms are unwrapped and judged by the IPv4 address inside them.
 */
const V4_NON_PUBLIC: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.31.196.0', 24, 'AS112'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['192.175.48.0', 24, 'AS112'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6_NON_PUBLIC: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'local-use NAT64'],
  ['100::', 64, 'discard-only'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
];

const v4Lists = V4_NON_PUBLIC.map(([net, prefix, why]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv4');
  return { list, why };
});
const v6Lists = V6_NON_PUBLIC.map(([net, prefix, why]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv6');
  return { list, why };
});
/** Every non-public range of a family in one list: most addresses judged are public, and one
 * check tells so; the per-range lists are only consulted to say why an address is refused. */
const anyV4 = new BlockList();
for (const [net, prefix] of V4_NON_PUBLIC) anyV4.addSubnet(net, prefix, 'ipv4');
const anyV6 = new BlockList();
for (const [net, prefix] of V6_NON_PUBLIC) anyV6.addSubnet(net, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/**
 * What a refusal of a non-public target says, to whoever asked: never the address, its kind or the
 * name it was resolved from, so that the answers cannot be used to map a private network or a
 * resolver's view of it (`nonPublicReason` is for the service's own decisions).
 */
export const NOT_A_PUBLIC_ADDRESS = 'not a public address';

/** Why `address` is not publicly routable, or null when it is. Anything unparseable is refused. */
export function nonPublicReason(address: string): string | null {
  const family = isIP(address);
  if (family === 4) {
    if (address === '255.255.255.255') return 'broadcast';
    if (!anyV4.check(address, 'ipv4')) return null;
    return v4Lists.find(({ list }) => list.check(address, 'ipv4'))?.why ?? null;
  }
  if (family === 6) {
    const embedded = embeddedIPv4(address);
    if (embedded) return nonPublicReason(embedded);
    if (anyV6.check(address, 'ipv6')) return v6Lists.find(({ list }) => list.check(address, 'ipv6'))?.why ?? null;
    return globalUnicast.check(address, 'ipv6') ? null : 'not global unicast';
  }
  return 'not an IP address';
}

/** True when `address` is a publicly routable unicast address. */
export function isPublicAddress(address: string): boolean {
  return nonPublicReason(address) === null;
}

/**
 * The key a client's address is counted under by per-source limits: an IPv4 address as it is (also
 * when it arrives IPv4-mapped), and an IPv6 address by its /64, the smallest block a single site is
 * given, so that one client cannot take a fresh address for every request.
 */
export function sourceKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const words = expandIPv6(address);
  if (!words) return address;
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) {
    return `${words[6] >> 8}.${words[6] & 255}.${words[7] >> 8}.${words[7] & 255}`;
  }
  return `${words
    .slice(0, 4)
    .map((w) => w.toString(16))
    .join(':')}::/64`;
}

/** The IPv4 address carried by IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96), NAT64
 * (64:ff9b::/96) and 6to4 (2002::/16) forms, or null. */
function embeddedIPv4(address: string): string | null {
  const words = expandIPv6(address);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return v4(words[6], words[7]);
  if (zeros(0, 6) && (words[6] !== 0 || words[7] > 1)) return v4(words[6], words[7]);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6], words[7]);
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

/** Eight 16-bit words of an IPv6 address (with an optional dotted IPv4 tail), or null. */
function expandIPv6(address: string): number[] | null {
  let text = address.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1].split('.').map(Number);
    text =
      text.slice(0, -dotted[1].length) +
      `${((parts[0] << 8) | parts[1]).toString(16)}:${((parts[2] << 8) | parts[3]).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (s: string) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const words = [...h, ...Array<number>(Math.max(fill, 0)).fill(0), ...t];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}
