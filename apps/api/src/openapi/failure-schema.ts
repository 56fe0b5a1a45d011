import { ERROR_TABLE, type ErrorCode } from '@gw/contract';
import type { JsonSchema } from './json-schema';

/** Every code of the error table (docs/api.md section 3). */
export const ALL_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** The failure envelope of docs/api.md section 2, with the codes it may carry. */
export function failureSchema(codes: readonly ErrorCode[], description: string): JsonSchema {
  const code = { type: 'string', enum: [...codes] };
  return {
    type: 'object',
    description,
    required: ['success', 'msg', 'details'],
    properties: {
      success: { const: false },
      msg: {
        type: 'array',
        items: code,
        minItems: 1,
        uniqueItems: true,
        description: 'each distinct code once, in order of first occurrence; clients key on this',
      },
      details: {
        type: 'array',
        description: 'for people: one entry per problem',
        items: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code,
            field: { type: 'string', description: 'the parameter concerned, when one is' },
            message: { type: 'string' },
          },
        },
      },
    },
  };
}

/** The codes as a Markdown table, for the documents' descriptions. */
export const codeTable = (codes: readonly ErrorCode[]) =>
  [
    '| code | meaning |',
    '|---|---|',
    ...codes.map((code) => `| \`${code}\` | ${ERROR_TABLE[code].replaceAll('|', '\\|')} |`),
  ].join('\n');
