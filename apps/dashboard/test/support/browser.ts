import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '@gw/testing';

/**
 * Where the screenshots of each view go: tmp/screenshots (ignored by git) on an ordinary run, so that
 * running the suite leaves the tree clean; docs/screenshots, which the README shows, only with
 * UPDATE_SCREENSHOTS=1.
 */
const SCREENSHOTS = join(ROOT, process.env['UPDATE_SCREENSHOTS'] === '1' ? 'docs/screenshots' : 'tmp/screenshots');

/**
 * Debian's chromium (`apt-get install chromium`): npm packages cannot download a browser here.
 * CHROMIUM_PATH overrides; the binary behind Debian's wrapper script is preferred, since the
 * wrapper only adds desktop flags.
 */
function chromiumPath(): string {
  const candidates = [process.env['CHROMIUM_PATH'], '/usr/lib/chromium/chromium'];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new Error('chromium is not installed: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)');
  }
}

/** A headless chromium; as root it must run without its sandbox. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** Saves the page as it looks now into SCREENSHOTS/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
  });
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Polls `probe` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 10_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await probe();
    if (last) return last as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
