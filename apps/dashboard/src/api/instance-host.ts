import type { Settings } from './types';

/**
 * Where the instance host is: PUBLIC_API_URL, or this page's scheme and host name on the instance
 * port. The page's own URL is reused, so that an IPv6 host keeps its one pair of brackets
 * (`location.hostname` is already "[::1]"). Free of the DOM, so that a plain Jest spec tests it.
 */
export function instanceHostUrl(
  settings: Pick<Settings, 'apiUrl' | 'apiPort'>,
  location: { readonly href: string },
): string {
  if (settings.apiUrl) return settings.apiUrl;
  const url = new URL(location.href);
  url.port = String(settings.apiPort);
  return url.origin;
}
