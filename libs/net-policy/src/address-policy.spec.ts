import { isPublicAddress, nonPublicReason, sourceKey } from './address-policy';

describe('nonPublicReason / isPublicAddress', () => {
  describe('public addresses', () => {
    it.each([['8.8.8.8'], ['1.1.1.1'], ['2606:4700:4700::1111'], ['2001:4860:4860::8888']])(
      'accepts public unicast %s',
      (address) => {
        expect(nonPublicReason(address)).toBeNull();
        expect(isPublicAddress(address)).toBe(true);
      },
    );

    it('accepts an IPv4-mapped public address (::ffff:8.8.8.8)', () => {
      expect(nonPublicReason('::ffff:8.8.8.8')).toBeNull();
      expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    });

    it('accepts the NAT64 form of a public address (64:ff9b::808:808 = 8.8.8.8)', () => {
      expect(nonPublicReason('64:ff9b::808:808')).toBeNull();
      expect(isPublicAddress('64:ff9b::808:808')).toBe(true);
    });

    it('accepts the 6to4 form of a public address (2002:808:808:: = 8.8.8.8)', () => {
      expect(isPublicAddress('2002:808:808::')).toBe(true);
    });

    it('accepts IPv6 written in upper case', () => {
      expect(isPublicAddress('2606:4700:4700::1111'.toUpperCase())).toBe(true);
    });
  });

  describe('IPv4 special-purpose ranges', () => {
    it.each([
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.5.4', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['100.64.0.1', 'shared address space (CGNAT)'],
      ['100.127.255.255', 'shared address space (CGNAT)'],
      ['0.0.0.0', 'this network'],
      ['255.255.255.255', 'broadcast'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['192.0.2.1', 'documentation'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.9', 'documentation'],
      ['198.18.0.1', 'benchmarking'],
      ['198.19.255.255', 'benchmarking'],
      ['192.0.0.8', 'IETF protocol assignments'],
    ])('refuses %s as %s', (address, reason) => {
      expect(nonPublicReason(address)).toBe(reason);
      expect(isPublicAddress(address)).toBe(false);
    });

    it.each([
      ['172.15.255.255'],
      ['172.32.0.0'],
      ['100.63.255.255'],
      ['100.128.0.0'],
      ['198.17.255.255'],
      ['198.20.0.0'],
      ['11.0.0.1'],
      ['223.255.255.254'],
    ])('accepts %s just outside a refused range', (address) => {
      expect(isPublicAddress(address)).toBe(true);
    });
  });

  describe('IPv6 special-purpose ranges', () => {
    it.each([
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'link-local'],
      ['fc00::1', 'unique-local'],
      ['fd12:3456::1', 'unique-local'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'documentation'],
      ['fec0::1', 'site-local (deprecated)'],
      ['100::1', 'discard-only'],
    ])('refuses %s as %s', (address, reason) => {
      expect(nonPublicReason(address)).toBe(reason);
      expect(isPublicAddress(address)).toBe(false);
    });

    it('refuses a link-local address with a zone id (fe80::1%eth0)', () => {
      expect(nonPublicReason('fe80::1%eth0')).toBe('link-local');
      expect(isPublicAddress('fe80::1%eth0')).toBe(false);
    });

    it('refuses addresses outside global unicast 2000::/3', () => {
      expect(nonPublicReason('4000::1')).toBe('not global unicast');
      expect(isPublicAddress('4000::1')).toBe(false);
    });
  });

  describe('IPv4 carried inside IPv6', () => {
    it.each([
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
      ['::FFFF:127.0.0.1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:169.254.169.254', 'link-local'],
    ])('refuses IPv4-mapped %s as %s', (address, reason) => {
      expect(nonPublicReason(address)).toBe(reason);
      expect(isPublicAddress(address)).toBe(false);
    });

    it('refuses NAT64 of a private address (64:ff9b::a00:1 = 10.0.0.1)', () => {
      expect(nonPublicReason('64:ff9b::a00:1')).toBe('private');
      expect(isPublicAddress('64:ff9b::a00:1')).toBe(false);
    });

    it('refuses NAT64 of loopback (64:ff9b::7f00:1 = 127.0.0.1)', () => {
      expect(nonPublicReason('64:ff9b::7f00:1')).toBe('loopback');
      expect(isPublicAddress('64:ff9b::7f00:1')).toBe(false);
    });

    it('refuses NAT64 written with a dotted tail (64:ff9b::169.254.169.254)', () => {
      expect(nonPublicReason('64:ff9b::169.254.169.254')).toBe('link-local');
    });

    it('refuses 6to4 of loopback (2002:7f00:1:: = 127.0.0.1)', () => {
      expect(nonPublicReason('2002:7f00:1::')).toBe('loopback');
      expect(isPublicAddress('2002:7f00:1::')).toBe(false);
    });

    it('refuses 6to4 of a private address (2002:c0a8:101::1 = 192.168.1.1)', () => {
      expect(nonPublicReason('2002:c0a8:101::1')).toBe('private');
    });

    it('refuses IPv4-compatible loopback (::127.0.0.1)', () => {
      expect(nonPublicReason('::127.0.0.1')).toBe('loopback');
    });
  });

  describe('input that is not an IP address', () => {
    it.each([['example.com'], [''], ['localhost'], ['256.0.0.1'], ['1.2.3'], ['::g'], [' 8.8.8.8']])(
      'refuses %j',
      (input) => {
        expect(nonPublicReason(input)).toBe('not an IP address');
        expect(isPublicAddress(input)).toBe(false);
      },
    );
  });
});

describe('local-use NAT64 (64:ff9b:1::/48)', () => {
  it('refuses the whole prefix, whatever IPv4 address seems embedded', () => {
    expect(isPublicAddress('64:ff9b:1::808:808')).toBe(false);
    expect(nonPublicReason('64:ff9b:1::808:808')).toBe('local-use NAT64');
  });
});

describe('sourceKey (what per-source rate limits count under)', () => {
  it('keeps an IPv4 address, also when it arrives IPv4-mapped', () => {
    expect(sourceKey('203.0.113.7')).toBe('203.0.113.7');
    expect(sourceKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one source', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0db8:0001:0002:abcd::9'].map(sourceKey);
    expect(new Set(keys)).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(sourceKey('2001:db8:1:3::1')).not.toBe(keys[0]);
    expect(sourceKey('::1')).toBe('0:0:0:0::/64');
  });
});
