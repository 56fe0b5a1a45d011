import { IsDefined, useContainer, validateSync } from 'class-validator';
import { loadConfig } from '@gw/config';
import { WebhookTargetPolicy } from '../webhooks/webhook-target-policy';
import { WebhookUrlFormConstraint } from '../webhooks/webhook-url-form.constraint';
import { OPERATION_ROUTES } from '../operations';
import { parameterNames } from './check-params';
import { rulePass } from './rule-pass';

const constraint = new WebhookUrlFormConstraint(
  new WebhookTargetPolicy(loadConfig({ NODE_ENV: 'test' }, '/tmp').webhooks),
);
useContainer(
  { get: (cls: unknown) => (cls === WebhookUrlFormConstraint ? constraint : undefined) },
  { fallback: true },
);

/** Values that pass some rules and fail others: missing, empty, wrong types, too long, control
 * characters, text that is not well-formed, e-mail addresses, URLs, numbers at and past the bounds,
 * sets of notification kinds, connection states, UTC days. */
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'abc',
  'ann@example.com',
  'not-an-email@',
  'https://example.com/hook',
  'http://example.com/',
  'https://127.0.0.1/',
  'https://a.example/\\x',
  'x'.repeat(254),
  'x'.repeat(255),
  'x'.repeat(5000),
  'a\u0000b',
  'a\nb',
  '\ud800',
  'a\ufffdb',
  'monthly',
  'read',
  'delivered',
  'chat',
  '7',
  '100',
  '101',
  '0',
  0,
  1,
  7,
  100,
  101,
  -1,
  1.5,
  1700000000,
  253402300800,
  true,
  false,
  [],
  {},
  ['a'],
  ['messages'],
  'messages',
  ' acks , ownMessages,acks ',
  'instance,,messages',
  ',',
  ' , ',
  'messages,Acks',
  'messages;acks',
  'authorized',
  'qr',
  '2026-01-10',
  '2026-02-30',
  '2026-04-30',
];

const check = (dto: object) => validateSync(dto, { stopAtFirstError: true, forbidUnknownValues: false });

/** A deterministic stream of DTO candidates. Each parameter mostly gets a value that passes its own
 * rules and sometimes any value, so that some candidates pass and many fail in one or more places;
 * then every value meets every parameter alone. */
function* candidates(dtoClass: new () => object, names: string[]): Generator<Record<string, unknown>> {
  const good = new Map(
    names.map((name) => [
      name,
      VALUES.filter(
        (value) => !check(Object.assign(new dtoClass(), { [name]: value })).some((e) => e.property === name),
      ),
    ]),
  );
  let seed = 1;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 4;
  for (let round = 0; round < 400; round++) {
    const values: Record<string, unknown> = {};
    for (const name of names) {
      const pool = next() % 12 === 0 || good.get(name)!.length === 0 ? VALUES : good.get(name)!;
      values[name] = pool[next() % pool.length];
    }
    yield values;
  }
  for (const name of names) {
    for (const value of VALUES) yield { [name]: value };
  }
}

describe('the hot-path rule check', () => {
  it.each(OPERATION_ROUTES.map((op) => [`${op.host} ${op.path}`, op.dto] as const))(
    'agrees with validateSync on every candidate for %s',
    (_name, dtoClass) => {
      const pass = rulePass(dtoClass);
      expect(pass).not.toBeNull();
      let passed = 0;
      let failed = 0;
      for (const values of candidates(dtoClass, parameterNames(dtoClass))) {
        const dto = Object.assign(new dtoClass(), values);
        const valid = check(dto).length === 0;
        expect({ values, pass: pass!(dto) }).toEqual({ values, pass: valid });
        if (valid) passed++;
        else failed++;
      }
      // The corpus exercises both answers, or the comparison would prove little.
      expect(failed).toBeGreaterThan(40);
      expect(passed).toBeGreaterThan(40);
    },
  );

  it('leaves a DTO with a rule it does not run the same way to validateSync', () => {
    class Defined {
      @IsDefined()
      value?: string;
    }
    expect(rulePass(Defined)).toBeNull();
  });
});
