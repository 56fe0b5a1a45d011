import type { ErrorCode } from './error-codes';

/** One problem with a request, as it appears in the failure envelope's `details`. */
export interface Violation {
  code: ErrorCode;
  field?: string;
  message: string;
}

/** The failure envelope of docs/api.md section 2: `msg` lists each distinct code once, in order. */
export interface FailureEnvelope {
  success: false;
  msg: ErrorCode[];
  details: Violation[];
}

/** Builds the failure envelope from violations, keeping first-occurrence order of codes. */
export function failureEnvelope(violations: readonly Violation[]): FailureEnvelope {
  const msg: ErrorCode[] = [];
  for (const v of violations) if (!msg.includes(v.code)) msg.push(v.code);
  return { success: false, msg, details: violations.map((v) => ({ ...v })) };
}
