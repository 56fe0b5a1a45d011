/** The control characters text parameters may not hold (docs/api.md section 1): C0, DEL and C1, as a
 * character class's contents. */
export const CONTROL_CHARACTERS = '\\u0000-\\u001f\\u007f-\\u009f';
