import fc from 'fast-check';
import type { Host } from './envelope';
import { deep, jsonText, text } from './fuzz-json';
import {
  CONTENT_TYPES,
  MALFORMED_JSON,
  METHODS,
  NAMES,
  ODD_NAMES,
  OPERATIONS,
  PATHS,
  SPECIAL,
  URLS,
} from './fuzz-vocabulary';

/** What a fuzzed request may use of the target: its real credentials, so that requests get past
 * the early checks as often as they are refused by them. */
export interface FuzzTarget {
  ports: Record<Host, number>;
  email: string;
  apikey: string;
  instanceids: string[];
  tokens: string[];
  internalToken: string;
}

export interface FuzzRequest {
  host: Host;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

type Param = [name: string, text: string, json: unknown];

export function fuzzRequests(t: FuzzTarget): fc.Arbitrary<FuzzRequest & { label: string }> {
  const real: Record<string, string[]> = {
    email: [t.email, t.email.toUpperCase()],
    token: [...t.tokens, t.apikey],
    apikey: [t.apikey],
    instanceid: t.instanceids,
    packageid: ['trial', 'monthly', 'annual'],
    webhookUrl: URLS,
    id: ['m-1', 'm-2', 'x'.repeat(257)],
    chatId: ['c@c.us'],
    status: ['sent', 'delivered', 'read', 'played', 'failed', 'pending', 'SENT'],
    limit: ['1', '100', '20'],
  };
  const typed: Record<string, fc.Arbitrary<unknown>> = {
    time: fc.constantFrom(1_700_000_000, 0, -1, 1.5, 253402300800, 2 ** 53, '1700000000'),
    fromMe: fc.constantFrom(true, false, 'true', 0),
    limit: fc.constantFrom(1, 100, 0, 101, 20.5, -1),
  };
  const stringFor = (name: string) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...(Object.hasOwn(real, name) ? real[name] : SPECIAL)) },
      { weight: 3, arbitrary: text },
    );
  const jsonFor = (name: string) =>
    fc.oneof(
      { weight: 8, arbitrary: Object.hasOwn(typed, name) ? fc.oneof(typed[name], stringFor(name)) : stringFor(name) },
      {
        weight: 1,
        arbitrary: fc.oneof(
          fc.integer(),
          fc.double(),
          fc.boolean(),
          fc.constant(null),
          fc.constantFrom(-1, 2 ** 53, 1e308, 0.5),
        ),
      },
      { weight: 1, arbitrary: fc.array(stringFor(name), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.dictionary(text, stringFor(name), { maxKeys: 3 }) },
      { weight: 1, arbitrary: deep },
    );
  const param = (name: string): fc.Arbitrary<Param> => fc.tuple(fc.constant(name), stringFor(name), jsonFor(name));
  const oddName = fc.oneof(fc.constantFrom(...NAMES, ...ODD_NAMES), fc.string({ maxLength: 10 }));
  /** The operation's parameters, each usually there, some others, and now and then one repeated. */
  const paramsFor = (names: string[]) =>
    fc
      .tuple(
        fc.tuple(...names.map((n) => fc.option(param(n), { freq: 8, nil: undefined }))),
        fc.array(oddName.chain(param), { maxLength: 2 }),
        fc.nat(9),
      )
      .map(([own, extra, repeat]) => {
        const all = [...own.filter((p): p is Param => p !== undefined), ...extra];
        return repeat === 0 && all.length > 0 ? [...all, all[0]] : all;
      });
  /** Parameters an operation accepts, with one now and then replaced by anything. */
  const validParams = (op: (typeof OPERATIONS)[number]) =>
    fc
      .tuple(
        fc.nat(t.instanceids.length - 1),
        fc.nat(1000),
        fc.constantFrom('', 'https://8.8.8.8/ok', 'https://1.1.1.1/x?y=1'),
        fc.nat(op.names.length * 2),
      )
      .chain(([i, n, url, mutate]) => {
        const valid: Record<string, unknown> = {
          email: t.email,
          token: op.path === '/newInstance' ? t.apikey : t.tokens[i],
          apikey: t.apikey,
          packageid: 'monthly',
          instanceid: t.instanceids[i],
          webhookUrl: url,
          limit: 10,
          id: `m-${n}`,
          chatId: 'c@c.us',
          time: 1_700_000_000 + n,
          status: 'read',
          from: 'f@c.us',
          fromMe: n % 2 === 0,
          senderName: 'Ann',
          type: 'chat',
          body: `body ${n} ✓`,
        };
        const params = op.names.map((name): fc.Arbitrary<Param> =>
          name === op.names[mutate] ? param(name) : fc.constant([name, String(valid[name]), valid[name]]),
        );
        return fc.tuple(...params);
      });
  const wellFormed = (s: string) => s.toWellFormed();
  const encode = (pairs: Param[]) =>
    pairs.map(([k, v]) => `${encodeURIComponent(wellFormed(k))}=${encodeURIComponent(wellFormed(v))}`).join('&');
  const json = (pairs: Param[]) => `{${pairs.map(([n, , v]) => `${JSON.stringify(n)}:${jsonText(v)}`).join(',')}}`;

  const segment = fc.oneof(
    fc.constantFrom(...t.instanceids, '', '..', '%2F', '%00', '%zz', '%E0%A4%A', 'messages', 'x'.repeat(300)),
    fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(wellFormed(s))),
  );
  const instanceSegment = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...t.instanceids) },
    { weight: 1, arbitrary: segment },
  );
  const randomPath = fc.oneof(
    fc.constantFrom(...PATHS),
    fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
  );
  const rawQuery = fc.constantFrom(
    '%',
    '%FF%FE',
    'a=%zz',
    '&&&',
    '=',
    'token',
    'a=1&a',
    ';token=x',
    'email=%E0%A4%A',
    `instanceid=${t.instanceids[0]}&instanceid=${t.instanceids[0]}`,
  );
  const body = (params: Param[]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant({ kind: 'json', text: json(params) }) },
      { weight: 2, arbitrary: fc.constant({ kind: 'form', text: encode(params) }) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(...MALFORMED_JSON, '[]', '1', '"str"', 'null', 'true')
          .map((s) => ({ kind: 'json', text: s })),
      },
      { weight: 1, arbitrary: deep.map((d) => ({ kind: 'json', text: d.__raw })) },
      {
        weight: 1,
        arbitrary: fc
          .uint8Array({ maxLength: 64 })
          .map((bytes) => ({ kind: 'bytes', text: '', bytes: Buffer.from(bytes) })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(65_537, 70_000, 300_000)
          .map((size) => ({ kind: 'json', text: `{"token":"${'x'.repeat(size)}"}` })),
      },
    );
  /** An operation of the host with parameters placed in the query, the body or both; or anything. */
  const shaped = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.constantFrom(...OPERATIONS).chain((op) =>
        fc
          .record({
            host: fc.constant(op.host),
            method: fc.oneof(
              { weight: 8, arbitrary: fc.constantFrom(...op.methods) },
              { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
            ),
            path: op.path.includes(':id')
              ? instanceSegment.map((id) => op.path.replace(':id', id))
              : fc.constant(op.path),
            // Where the parameters go: 0 the query, 1 the body, 2-3 split between them; mostly where the host reads them.
            split: fc
              .oneof(paramsFor(op.names), validParams(op))
              .chain((params) =>
                fc.tuple(
                  fc.constant(params),
                  fc.nat(params.length),
                  op.host === 'instance'
                    ? fc.nat(3)
                    : fc.oneof({ weight: 5, arbitrary: fc.constant(op.host === 'account' ? 0 : 1) }, fc.nat(3)),
                ),
              ),
          })
          .chain(({ host, method, path, split: [params, cut, where] }) => {
            const inQuery = where === 0 ? params : where === 1 ? [] : params.slice(0, cut);
            const inBody = where === 0 ? [] : where === 1 ? params : params.slice(cut);
            return fc.record({
              host: fc.constant(host),
              method: fc.constant(method),
              path: fc.constant(path),
              query: fc.oneof(
                { weight: 9, arbitrary: fc.constant(encode(inQuery)) },
                { weight: 1, arbitrary: rawQuery },
              ),
              body: inBody.length === 0 && where !== 1 ? fc.constant(undefined) : body(inBody),
            });
          }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        host: fc.constantFrom<Host>('account', 'instance', 'internal'),
        method: fc.constantFrom(...METHODS),
        path: randomPath,
        query: fc.oneof(paramsFor(NAMES.slice(0, 7)).map(encode), rawQuery),
        body: fc.option(paramsFor(NAMES).chain(body), { nil: undefined }),
      }),
    },
  );
  const contentType = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  const authorization = fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${t.internalToken}`) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        undefined,
        'Bearer',
        'Bearer ',
        `bearer ${t.internalToken}`,
        `Bearer ${t.internalToken} `,
        `Bearer ${t.internalToken}x`,
        `Basic ${t.internalToken}`,
        `Bearer ${t.apikey}`,
      ),
    },
  );

  return fc
    .record({ shaped, contentType, authorization, chunked: fc.nat(7) })
    .map(({ shaped: { host, method, path, query, body }, contentType, authorization, chunked }) => {
      const headers: Record<string, string> = {};
      const payload = body === undefined ? undefined : 'bytes' in body ? body.bytes : Buffer.from(body.text, 'utf8');
      const type =
        contentType ??
        (body?.kind === 'json'
          ? 'application/json'
          : body?.kind === 'form'
            ? 'application/x-www-form-urlencoded'
            : undefined);
      if (type !== undefined && payload !== undefined) headers['content-type'] = type;
      if (authorization !== undefined) headers['authorization'] = authorization;
      if (chunked === 0 && payload !== undefined) headers['transfer-encoding'] = 'chunked';
      const target = `${path}${query ? `?${query}` : ''}`;
      const shown =
        payload === undefined ? '' : ` ${type ?? '(no type)'} ${payload.length} B: ${payload.toString('utf8', 0, 200)}`;
      const label = `${method} ${host}${target.slice(0, 300)}${authorization ? ` [auth: ${authorization.slice(0, 12)}…]` : ''}${chunked === 0 && payload ? ' [chunked]' : ''}${shown}`;
      return { host, method, path: target, headers, body: payload, label };
    });
}
