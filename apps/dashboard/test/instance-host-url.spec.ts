import { instanceHostUrl } from '../src/api/instance-host';

// Where the page finds the instance host (docs/api.md 10.1): PUBLIC_API_URL, or the page's own
// scheme and host name on the instance port. A pure function of the page's URL, so no browser needed.

describe('instanceHostUrl', () => {
  it('keeps an IPv6 host in one pair of brackets', () => {
    // location.hostname is already "[::1]" on such a page.
    expect(instanceHostUrl({ apiUrl: '', apiPort: 18081 }, { href: 'http://[::1]:18080/' })).toBe('http://[::1]:18081');
    expect(instanceHostUrl({ apiUrl: '', apiPort: 8081 }, { href: 'https://[2001:db8::7]:8080/?x=1#y' })).toBe(
      'https://[2001:db8::7]:8081',
    );
  });

  it('puts the instance port on an IPv4 or named host, with the page scheme', () => {
    expect(instanceHostUrl({ apiUrl: '', apiPort: 18081 }, { href: 'http://127.0.0.1:18080/' })).toBe(
      'http://127.0.0.1:18081',
    );
    expect(instanceHostUrl({ apiUrl: '', apiPort: 8443 }, { href: 'https://gw.example.com/' })).toBe(
      'https://gw.example.com:8443',
    );
  });

  it('uses PUBLIC_API_URL as it is when set', () => {
    expect(
      instanceHostUrl({ apiUrl: 'https://api.example.com/gw', apiPort: 18081 }, { href: 'http://[::1]:18080/' }),
    ).toBe('https://api.example.com/gw');
  });
});
