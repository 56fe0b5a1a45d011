import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsEmail, IsNotEmpty, IsString, Matches, MaxLength, Validate } from 'class-validator';
import type { ErrorCode } from '@gw/contract';
import { WebhookUrlFormConstraint } from '../webhooks/webhook-url-form.constraint';

/** Attaches the contract code that a failed rule reports; the validation pipe reads it back. */
const withCode = (code: ErrorCode, message: string) => ({ context: { code }, message });
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** A required string parameter: missing or empty is 0001; wrong type, too long or control characters
 * is 0002. The rules run in this order and stop at the first failure. */
export function RequiredText(maxLength: number): PropertyDecorator {
  return applyDecorators(
    IsNotEmpty(withCode('0001', '$property is required')),
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
    IsDefined(withCode('0001', '$property is required (send it empty to switch delivery off)')),
    IsString(withCode('0002', '$property must be a string')),
    Validate(WebhookUrlFormConstraint, { context: { code: '0008' } }),
  );
}
