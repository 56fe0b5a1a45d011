import { getMetadataStorage, ValidationTypes, type MetadataStorage } from 'class-validator';
import { Codes, type ErrorCode } from '@gw/contract';
import { parameterNames } from '../http/check-params';
import { MAX_WEBHOOK_URL_LENGTH } from '../webhooks/webhook-target-policy';
import type { JsonSchema } from './json-schema';

/** One parameter of an operation, as its DTO's class-validator rules define it. */
export interface ParamDoc {
  name: string;
  required: boolean;
  /** The value as the query string or a form carries it. */
  text: JsonSchema;
  /** The value in a JSON body: a number may be a JSON number, an optional one may be null. */
  json: JsonSchema;
  /** What each rule refuses, with its code, in the order the rules run. */
  rules: Array<{ code: ErrorCode; message: string }>;
}

/** What one kind of rule says about the value it accepts. */
interface RuleSchema {
  text?: JsonSchema;
  /** Replaces `text` in a JSON body. */
  json?: JsonSchema;
  required?: boolean;
  /** For rules whose message is not fixed (a constraint class's default message). */
  message?: string;
}

/** A whole number as the rules of param-rules.ts take it (constraints: minimum, maximum or none, the
 * pattern of its text): digits, or in a JSON body also a JSON number. */
function wholeNumber([min, max, digits]: unknown[]): RuleSchema {
  const range = { minimum: min, ...(max === undefined ? {} : { maximum: max }) };
  return {
    text: { type: 'integer', ...range },
    json: {
      anyOf: [
        { type: 'integer', ...range },
        { type: 'string', pattern: (digits as RegExp).source },
      ],
    },
  };
}

/** `events`: comma-separated kind names, spaces around them ignored, at least one named. */
function kindSetPattern(kinds: readonly string[]): string {
  const kind = `(?:${kinds.join('|')})`;
  return `^(?=[ ,]*[^ ,])(?: *${kind}? *,)* *${kind}? *$`;
}

/**
 * Every kind of rule the DTOs use, by class-validator's constraint name. A rule missing here makes
 * building the description fail (openapi-document.spec.ts), so a new rule cannot go undescribed.
 */
const RULES: Record<string, (constraints: unknown[]) => RuleSchema> = {
  isGiven: () => ({ required: true }),
  isString: () => ({ text: { type: 'string' } }),
  maxLength: ([max]) => ({ text: { maxLength: max } }),
  matches: ([pattern]) => ({ text: { pattern: (pattern as RegExp).source } }),
  isWellFormed: () => ({}),
  isEmailAddress: () => ({ text: { format: 'email' } }),
  webhookUrlForm: () => ({
    text: { maxLength: MAX_WEBHOOK_URL_LENGTH },
    message: `$property must be an absolute https URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters, without a \\`,
  }),
  isHeaderObject: () => ({
    text: { contentMediaType: 'application/json' },
    message:
      '$property must be a JSON object of at most 10 headers: names of token characters (at most 64), string values of visible ASCII and spaces (at most 1024), none of the names the service sets',
  }),
  isKindSet: ([kinds]) => ({ text: { pattern: kindSetPattern(kinds as readonly string[]) } }),
  isLimit: wholeNumber,
  isSequence: wholeNumber,
  isWithinRedeliverRange: () => ({}),
  isDay: () => ({ text: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } }),
  isDayRange: () => ({}),
  isBoolean: () => ({ text: { type: 'boolean' } }),
  isInt: () => ({ text: { type: 'integer' } }),
  min: ([min]) => ({ text: { minimum: min } }),
  max: ([max]) => ({ text: { maximum: max } }),
  isIn: ([values]) => ({ text: { enum: values } }),
};

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

function ruleName(rule: ValidationMetadata): string {
  if (rule.name) return rule.name;
  const [constraint] = getMetadataStorage().getTargetValidatorConstraints(rule.constraintCls);
  return constraint?.name ?? rule.type;
}

/** The parameters of a DTO class, in declaration order, read from class-validator's metadata. */
export function paramDocs(dtoClass: new () => object): ParamDoc[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(dtoClass, '', false, false);
  return parameterNames(dtoClass).map((name) => {
    let text: JsonSchema = {};
    let json: JsonSchema | undefined;
    let required = false;
    let optional = false;
    let allowsEmpty = false;
    const refusals: ParamDoc['rules'] = [];
    for (const rule of rules.filter((r) => r.propertyName === name)) {
      if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        optional = true;
        continue;
      }
      const kind = ruleName(rule);
      const describe = RULES[kind];
      if (!describe) throw new Error(`${dtoClass.name}.${name}: no description for the rule "${kind}"`);
      const said = describe(rule.constraints ?? []);
      text = { ...text, ...said.text };
      json = said.json ?? json;
      required ||= said.required === true;
      if (kind === 'isGiven') allowsEmpty = rule.constraints[0] === true;
      const message = typeof rule.message === 'string' ? rule.message : said.message;
      if (message) {
        const code = (rule.context as { code?: ErrorCode } | undefined)?.code ?? Codes.MalformedParameter;
        refusals.push({ code, message: message.replaceAll('$property', name) });
      }
    }
    if (text['type'] === 'string' && required && !allowsEmpty) text = { ...text, minLength: 1 };
    const body = json ?? text;
    const nullable = Array.isArray(body['anyOf'])
      ? { anyOf: [...body['anyOf'], { type: 'null' }] }
      : { anyOf: [body, { type: 'null' }] };
    return { name, required: required && !optional, text, json: optional ? nullable : body, rules: refusals };
  });
}

/** The codes a DTO's rules can refuse with (stage 1), a repeated name's 0002 included. */
export function formCodes(params: readonly ParamDoc[]): ErrorCode[] {
  return [...new Set<ErrorCode>([Codes.MalformedParameter, ...params.flatMap((p) => p.rules.map((r) => r.code))])];
}
