import type { AccountApi } from '../api/client';
import type { Settings } from '../api/types';

/** A token the page was just given (by newInstance or resetInstanceToken), shown once. */
export interface IssuedToken {
  token: string;
  why: 'created' | 'reset';
}

/** What a view may ask of the page (App): who is signed in, and to show another view. The views
 * know the page by this alone, so that they do not import the app that renders them. */
export interface Page {
  readonly settings: Settings;
  readonly instanceHost: string;
  readonly account: AccountApi | undefined;
  signInToAccount(account: AccountApi): void;
  showSignIn(instanceid?: string): void;
  showInstances(message?: string): void;
  openInstance(instanceid: string, token: string, issued?: IssuedToken): void;
}
