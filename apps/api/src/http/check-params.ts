import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import { Codes, Refusal, type ErrorCode, type Violation } from '@gw/contract';
import { mergeParams, type RequestParams } from './request-params';
import { rulePass } from './rule-pass';

const namesByDto = new Map<new () => object, string[]>();

/**
 * Checks a request's parameters against an operation's DTO class (stage 1 of docs/api.md section 2):
 * every problem is reported at once, one per parameter, with its code. Returns the filled DTO.
 */
export function checkParams<Dto extends object>(dtoClass: new () => Dto, params: RequestParams): Dto {
  const names = parameterNames(dtoClass);
  const { values, repeated } = mergeParams(params, names);
  const dto = Object.assign(new dtoClass(), values);
  if (repeated.length === 0 && rulePass(dtoClass)?.(dto)) return dto;
  // Every rule is synchronous; validateSync spares a promise per rule.
  const errors = validateSync(dto, { stopAtFirstError: true, forbidUnknownValues: false });
  if (errors.length === 0 && repeated.length === 0) return dto;
  const byName = new Map(errors.map((e) => [e.property, e]));
  const violations: Violation[] = [];
  for (const name of names) {
    if (repeated.includes(name)) {
      violations.push({ code: Codes.MalformedParameter, field: name, message: `${name} is given more than once` });
      continue;
    }
    const error = byName.get(name);
    if (error) violations.push(toViolation(error));
  }
  throw new Refusal(violations, 'request');
}

/** The parameter names a DTO class declares rules for, in declaration order; read once per class. */
export function parameterNames(dtoClass: new () => object): string[] {
  let names = namesByDto.get(dtoClass);
  if (!names) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(dtoClass, '', false, false);
    names = [...new Set(rules.map((rule) => rule.propertyName))];
    namesByDto.set(dtoClass, names);
  }
  return names;
}

function toViolation(error: ValidationError): Violation {
  const [rule] = Object.keys(error.constraints ?? {});
  const code = (error.contexts?.[rule]?.['code'] as ErrorCode | undefined) ?? Codes.MalformedParameter;
  return { code, field: error.property, message: error.constraints?.[rule] ?? `${error.property} is malformed` };
}
