import { applyDecorators } from '@nestjs/common';
import { IsEmail, IsString, Matches, MaxLength, Validate, ValidateBy } from 'class-validator';
import type { ErrorCode } from '@gw/contract';
import { WebhookUrlFormConstraint } from '../webhooks/webhook-url-form.constraint';

/** Attaches the contract code that a failed rule reports; the validation pipe reads it back. */
const withCode = (code: ErrorCode, message: string) => ({ context: { code }, message });
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** The parameter is given (0001 otherwise). A JSON `null` is given, with the wrong type, so the
 * string rule after this one reports it as 0002. */
const IsGiven = (allowEmpty: boolean, message: string) =>
  ValidateBy(
    { name: 'isGiven', validator: { validate: (value: unknown) => value !== undefined && (allowEmpty || value !== '') } },
    withCode('0001', message),
  );

/** A required string parameter: missing or empty is 0001; wrong type, too long or control characters
 * is 0002. The rules run in this order and stop at the first failure. */
export function RequiredText(maxLength: number): PropertyDecorator {
  return applyDecorators(
    IsGiven(false, '$property is required'),
    IsString(withCode('0002', '$property must be a string')),
    MaxLength(maxLength, withCode('0002', `$property must be at most ${maxLength} characters`)),
    Matches(NO_CONTROL_CHARACTERS, withCode('0002', '$property must not contain control characters')),
  );
}

export function EmailAddress(): PropertyDecorator {
  return applyDecorators(
    RequiredText(254),
    IsEmail({}, withCode('0002', '$property must be an e-mail address')),
  );
}

/** `webhookUrl`: must be present but may be empty (empty switches delivery off). */
export function WebhookUrlParam(): PropertyDecorator {
  return applyDecorators(
    IsGiven(true, '$property is required (send it empty to switch delivery off)'),
    IsString(withCode('0002', '$property must be a string')),
    Validate(WebhookUrlFormConstraint, { context: { code: '0008' } }),
  );
}
