import { AccountApi, InstanceApi, instanceHostUrl } from './api/client';
import type { Settings } from './api/types';
import { fill, h } from './ui/dom';
import { renderInstance } from './views/instance.view';
import { renderInstances } from './views/instances.view';
import type { IssuedToken, Page } from './views/page';
import { renderSignIn } from './views/sign-in.view';

/**
 * The page's state: who is signed in, held in memory only (no cookie, no storage, nothing in the
 * URL), and which view shows. Reloading the page signs out.
 */
export class App implements Page {
  account: AccountApi | undefined;
  readonly instanceHost: string;

  constructor(
    readonly settings: Settings,
    private readonly main: HTMLElement,
    private readonly sessionBar: HTMLElement,
  ) {
    this.instanceHost = instanceHostUrl(settings, window.location);
  }

  signInToAccount(account: AccountApi): void {
    this.account = account;
    this.showInstances();
  }

  signOut(): void {
    this.account = undefined;
    this.showSignIn();
  }

  showSignIn(instanceid = ''): void {
    this.render('Sign in', renderSignIn(this, instanceid));
    this.updateSessionBar();
  }

  showInstances(message?: string): void {
    if (!this.account) return this.showSignIn();
    this.render('Instances', renderInstances(this, this.account, message));
    this.updateSessionBar();
  }

  /** The instance view, with the instance's own credentials (docs/api.md 4.4 to 4.8, 8.5 to 8.8). */
  openInstance(instanceid: string, token: string, issued?: IssuedToken): void {
    const api = new InstanceApi(this.instanceHost, instanceid, token);
    this.render(`Instance ${instanceid}`, renderInstance(this, api, issued));
    this.updateSessionBar();
  }

  private render(title: string, view: HTMLElement): void {
    document.title = `${title} · gateway-hub`;
    fill(this.main, view);
    // Moves focus to the new view so that keyboard and screen-reader users start at its top.
    this.main.focus();
  }

  private updateSessionBar(): void {
    if (!this.account) return fill(this.sessionBar);
    fill(
      this.sessionBar,
      h('span', { class: 'session-who' }, 'Signed in as ', h('strong', {}, this.account.email)),
      h(
        'button',
        { type: 'button', class: 'button button-secondary button-small', onclick: () => this.signOut() },
        'Sign out',
      ),
    );
  }
}
