import { App } from './app';
import type { Settings } from './api/types';

/** The settings the account host put into the page (a JSON data block; no inline script runs). */
function readSettings(): Settings {
  const block = document.getElementById('gw-settings');
  const parsed = block?.textContent ? (JSON.parse(block.textContent) as Partial<Settings>) : {};
  return { apiUrl: parsed.apiUrl ?? '', apiPort: parsed.apiPort ?? 8081, packages: parsed.packages ?? [] };
}

const main = document.getElementById('main');
const session = document.getElementById('session');
if (main && session) new App(readSettings(), main, session).showSignIn();
