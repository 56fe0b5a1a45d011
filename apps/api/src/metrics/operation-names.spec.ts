import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTES, type HostName } from '../http/routes';
import { OPERATION_ROUTES } from '../operations';
import { OPERATION_NAMES, operationName, PREFLIGHT, UNKNOWN_OPERATION } from './operation-names';

const repository = join(__dirname, '../../../..');

describe('operation names of the request metrics', () => {
  it('names every route of every host, and only those', () => {
    for (const host of Object.keys(ROUTES) as HostName[]) {
      expect(Object.keys(OPERATION_NAMES[host]).sort()).toEqual(Object.keys(ROUTES[host]).sort());
    }
  });

  it('never turns what a client sent into a label', () => {
    expect(operationName('internal', '/instances/abc/messages')).toBe(UNKNOWN_OPERATION);
    expect(operationName('account', '/getWebhookStatus')).toBe(UNKNOWN_OPERATION);
    expect(operationName('instance', 'constructor')).toBe(UNKNOWN_OPERATION);
    expect(operationName('internal', '/instances/:instanceid/messages')).toBe('recordMessage');
  });

  it("README's metrics table names every value of the label, and no other", () => {
    const readme = readFileSync(join(repository, 'README.md'), 'utf8');
    const row = readme.split('\n').find((line) => line.startsWith('| `gw_api_requests_total` |')) ?? '';
    const cell = row.slice(row.indexOf('`operation`: '), row.indexOf('`status`: '));
    const listed = new Set([...cell.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1]));
    listed.delete('operation');
    listed.delete('OPTIONS');
    const values = new Set([
      ...Object.values(OPERATION_NAMES).flatMap((names) => Object.values(names)),
      UNKNOWN_OPERATION,
      PREFLIGHT,
    ]);
    expect([...listed].sort()).toEqual([...values].sort());
  });

  it("docs/api.md's table of hosts names every operation's path on its own host", () => {
    const docs = readFileSync(join(repository, 'docs/api.md'), 'utf8');
    const rowOf = (host: string) => docs.split('\n').find((line) => line.startsWith(`| ${host} |`)) ?? '';
    const rows = {
      account: rowOf('account host'),
      instance: rowOf('instance host'),
      internal: rowOf('internal ingest host'),
    };
    for (const route of OPERATION_ROUTES) {
      const path = route.path.replace(':instanceid', '{instanceid}');
      expect({ operation: route.name, listed: rows[route.host].includes(` ${path}\``) }).toEqual({
        operation: route.name,
        listed: true,
      });
    }
  });
});
