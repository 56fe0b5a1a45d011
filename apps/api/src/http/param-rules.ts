import { applyDecorators } from '@nestjs/common';
import {
  IsBoolean,
  isEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateBy,
} from 'class-validator';
import { Codes, type ErrorCode } from '@gw/contract';
import { CONTROL_CHARACTERS } from './control-characters';
import { NOTIFICATION_KINDS, SIGNATURE_SCHEMES } from '@gw/domain-instances';
import { isKindSet, MAX_EVENTS_LENGTH } from '../webhooks/notification-kinds-param';
import { MAX_HEADERS_TEXT_LENGTH, parseHeaders } from '../webhooks/webhook-headers-param';
import { WebhookUrlFormConstraint } from '../webhooks/webhook-url-form.constraint';

/** Attaches the contract code that a failed rule reports; the validation pipe reads it back. */
const withCode = (code: ErrorCode, message: string) => ({ context: { code }, message });
const NO_CONTROL_CHARACTERS = new RegExp(`^[^${CONTROL_CHARACTERS}]*$`);

/** The parameter is given (0001 otherwise). A JSON `null` is given, with the wrong type, so the
 * string rule after this one reports it as 0002. */
const IsGiven = (allowEmpty: boolean, message: string) =>
  ValidateBy(
    {
      name: 'isGiven',
      constraints: [allowEmpty],
      validator: { validate: (value: unknown) => value !== undefined && (allowEmpty || value !== '') },
    },
    withCode(Codes.MissingParameter, message),
  );

/** Text that is not well-formed Unicode (a lone surrogate, or bytes that were not UTF-8) cannot be
 * stored and given back exactly as sent, so it is refused. */
const WellFormed = () =>
  ValidateBy(
    {
      name: 'isWellFormed',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.isWellFormed() && !value.includes('\ufffd'),
      },
    },
    withCode(Codes.MalformedParameter, '$property must be well-formed UTF-8 text'),
  );

/** A required string parameter: missing or empty is 0001; wrong type, too long, control characters
 * or text that is not well-formed is 0002. The rules run in this order and stop at the first failure. */
export function RequiredText(maxLength: number): PropertyDecorator {
  return givenText(maxLength, false, '$property is required');
}

/** A parameter that must be given but may be empty (setInstanceLabel's `label`: empty removes it);
 * otherwise as RequiredText. */
export function PresentText(maxLength: number): PropertyDecorator {
  return givenText(maxLength, true, '$property is required (send it empty to remove it)');
}

function givenText(maxLength: number, allowEmpty: boolean, missing: string): PropertyDecorator {
  return applyDecorators(
    IsGiven(allowEmpty, missing),
    IsString(withCode(Codes.MalformedParameter, '$property must be a string')),
    MaxLength(maxLength, withCode(Codes.MalformedParameter, `$property must be at most ${maxLength} characters`)),
    Matches(NO_CONTROL_CHARACTERS, withCode(Codes.MalformedParameter, '$property must not contain control characters')),
    WellFormed(),
  );
}

/** `email`: an e-mail address, spaces around it ignored (accounts compare it trimmed and lowercased). */
export function EmailAddress(): PropertyDecorator {
  return applyDecorators(
    RequiredText(254),
    ValidateBy(
      {
        name: 'isEmailAddress',
        validator: { validate: (value: unknown) => typeof value === 'string' && isEmail(value.trim()) },
      },
      withCode(Codes.MalformedParameter, '$property must be an e-mail address'),
    ),
  );
}

/** `webhookUrl`: must be present but may be empty (empty switches delivery off). */
export function WebhookUrlParam(): PropertyDecorator {
  return applyDecorators(
    IsGiven(true, '$property is required (send it empty to switch delivery off)'),
    IsString(withCode(Codes.MalformedParameter, '$property must be a string')),
    WellFormed(),
    Validate(WebhookUrlFormConstraint, { context: { code: Codes.WebhookUrlRefused } }),
  );
}

/** `webhookUrl` of testWebhook (docs/api.md 8.6): optional; absent or empty means the registered URL,
 * and a given one is checked as registration checks it. */
export function OptionalWebhookUrlParam(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsString(withCode(Codes.MalformedParameter, '$property must be a string')),
    WellFormed(),
    Validate(WebhookUrlFormConstraint, { context: { code: Codes.WebhookUrlRefused } }),
  );
}

/** An optional string parameter; when given it must be a string within `maxLength` without control
 * characters (free text such as a message body may have them: `allowControl`). */
export function OptionalText(maxLength: number, allowControl = false): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsString(withCode(Codes.MalformedParameter, '$property must be a string')),
    MaxLength(maxLength, withCode(Codes.MalformedParameter, `$property must be at most ${maxLength} characters`)),
    ...(allowControl
      ? []
      : [
          Matches(
            NO_CONTROL_CHARACTERS,
            withCode(Codes.MalformedParameter, '$property must not contain control characters'),
          ),
        ]),
    WellFormed(),
  );
}

/** `events` of webhook (docs/api.md 8.4): optional; when given (a JSON null is not), a string
 * naming one or more notification kinds, separated by commas; anything else is 0002. */
export function NotificationKindsParam(): PropertyDecorator {
  return applyDecorators(
    OptionalText(MAX_EVENTS_LENGTH),
    ValidateBy(
      {
        name: 'isKindSet',
        constraints: [NOTIFICATION_KINDS],
        validator: { validate: (value: unknown) => typeof value === 'string' && isKindSet(value) },
      },
      withCode(
        Codes.MalformedParameter,
        `$property must list one or more of ${NOTIFICATION_KINDS.join(', ')}, separated by commas`,
      ),
    ),
  );
}

/** `webhookHeaders` of webhook (docs/api.md section 12): optional; a JSON object text of header
 * names and values. The refusal names what is wrong, never a value (values are secrets). */
export function WebhookHeadersParam(): PropertyDecorator {
  return applyDecorators(
    // Control characters are judged by the header rules: JSON's own whitespace may hold line feeds.
    OptionalText(MAX_HEADERS_TEXT_LENGTH, true),
    ValidateBy(
      {
        name: 'isHeaderObject',
        validator: {
          validate: (value: unknown) => typeof value === 'string' && parseHeaders(value).problems.length === 0,
        },
      },
      {
        context: { code: Codes.MalformedParameter },
        message: ({ value }: { value: unknown }) =>
          `$property ${typeof value === 'string' ? parseHeaders(value).problems.join('; ') : 'must be a string'}`,
      },
    ),
  );
}

/** `signatureScheme` of webhook (section 12): optional, `hmac` or `ed25519`. */
export function SignatureSchemeParam(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsIn(
      [...SIGNATURE_SCHEMES],
      withCode(Codes.MalformedParameter, `$property must be one of ${SIGNATURE_SCHEMES.join(', ')}`),
    ),
  );
}

/** An optional string that, when given, must be one of `allowed` (0002 otherwise). */
export function OptionalOneOf(allowed: readonly string[]): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsIn([...allowed], withCode(Codes.MalformedParameter, `$property must be one of ${allowed.join(', ')}`)),
  );
}

export function OptionalBoolean(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsBoolean(withCode(Codes.MalformedParameter, '$property must be true or false')),
  );
}

/** A required Unix time in whole seconds. */
export function UnixSeconds(): PropertyDecorator {
  return applyDecorators(
    IsGiven(false, '$property is required'),
    IsInt(withCode(Codes.MalformedParameter, '$property must be a whole number of Unix seconds')),
    Min(0, withCode(Codes.MalformedParameter, '$property must not be negative')),
    Max(253402300799, withCode(Codes.MalformedParameter, '$property is too far in the future')),
  );
}

/** A required string that must be one of `allowed`. */
export function OneOf(allowed: readonly string[]): PropertyDecorator {
  return applyDecorators(
    IsGiven(false, '$property is required'),
    IsIn([...allowed], withCode(Codes.MalformedParameter, `$property must be one of ${allowed.join(', ')}`)),
  );
}

/** How a whole-number parameter may be written as text: a limit (at most 100), a sequence number
 * (within Number.MAX_SAFE_INTEGER). */
const LIMIT_TEXT = /^\d{1,4}$/;
const SEQUENCE_TEXT = /^\d{1,15}$/;

/** `limit` of getWebhookLogs (1 to 100) or listInstances (1 to 1000), as a string of digits or a
 * JSON number. */
export function Limit(max: number): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    ValidateBy(
      {
        name: 'isLimit',
        // Read by the API description (apps/api/src/openapi), as every rule's constraints are.
        constraints: [1, max, LIMIT_TEXT],
        validator: {
          validate: (value: unknown) =>
            (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) ||
            (typeof value === 'string' && LIMIT_TEXT.test(value) && Number(value) >= 1 && Number(value) <= max),
        },
      },
      withCode(Codes.MalformedParameter, `$property must be a whole number from 1 to ${max}`),
    ),
  );
}

/** A whole number from `min` on, as a string of digits or a JSON number (getNotifications' `after`,
 * redeliver's `from` and `to`, docs/api.md 8.7 and 8.8); required unless `optional`. */
export function SequenceParam(min: 0 | 1, optional: boolean): PropertyDecorator {
  return applyDecorators(
    ...(optional ? [IsOptional()] : [IsGiven(false, '$property is required')]),
    ValidateBy(
      {
        name: 'isSequence',
        constraints: [min, undefined, SEQUENCE_TEXT],
        validator: {
          validate: (value: unknown) =>
            (typeof value === 'number' && Number.isSafeInteger(value) && value >= min) ||
            (typeof value === 'string' && SEQUENCE_TEXT.test(value) && Number(value) >= min),
        },
      },
      withCode(Codes.MalformedParameter, `$property must be a whole number from ${min} on`),
    ),
  );
}
