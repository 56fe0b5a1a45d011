import { createParamDecorator, Injectable, type ArgumentMetadata, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { getMetadataStorage, validate, type ValidationError } from 'class-validator';
import { Codes, type ErrorCode, type Violation } from '@gw/contract';
import { RequestRefused } from './contract-error';
import { mergeParams, type RequestParams } from './request-params';

/** The parsed sources of a request, attached by the HTTP listener before Nest sees it. */
export interface ContractRequest {
  contractParams: RequestParams;
}

/**
 * Checks the request's parameters against the DTO class of the handler's argument (stage 1 of
 * CONTRACT section 2): every problem is reported at once, one per parameter, with its code.
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform<RequestParams> {
  async transform(params: RequestParams, metadata: ArgumentMetadata): Promise<unknown> {
    const dtoClass = metadata.metatype as (new () => object) | undefined;
    if (!dtoClass) throw new Error('a @ContractParams() argument needs a DTO class as its type');
    const names = parameterNames(dtoClass);
    const { values, repeated } = mergeParams(params, names);
    const dto = Object.assign(new dtoClass(), values);
    const errors = await validate(dto, { stopAtFirstError: true, forbidUnknownValues: false });
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
    if (violations.length > 0) throw new RequestRefused(violations);
    return dto;
  }
}

/** The request's parameters, checked against the argument's DTO class. */
export const ContractParams = () =>
  createParamDecorator((_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<ContractRequest>().contractParams)(
    undefined,
    ContractValidationPipe,
  );

function parameterNames(dtoClass: new () => object): string[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(dtoClass, '', false, false);
  return [...new Set(rules.map((rule) => rule.propertyName))];
}

function toViolation(error: ValidationError): Violation {
  const [rule] = Object.keys(error.constraints ?? {});
  const code = (error.contexts?.[rule]?.['code'] as ErrorCode | undefined) ?? Codes.MalformedParameter;
  return { code, field: error.property, message: error.constraints?.[rule] ?? `${error.property} is malformed` };
}
