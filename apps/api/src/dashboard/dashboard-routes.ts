import type { RouteTable } from '@gw/http-listener';

/** The dashboard's routes on the account host (docs/api.md section 10): the page, and its bundled
 * files, whose names carry a hash of their content. */
export const DASHBOARD_ROUTES: RouteTable = {
  '/': ['GET', 'HEAD'],
  '/assets/:file': ['GET', 'HEAD'],
};
