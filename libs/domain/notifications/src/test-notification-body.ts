/** The body of a test notification (docs/api.md 8.6): no sequence, never retried, never listed. */
export type TestNotificationBody = { instanceId: string; test: true; at: string };

/** The test notification's body for `instanceId`, sent at `at`. */
export const testNotificationBody = (instanceId: string, at: string): TestNotificationBody => ({
  instanceId,
  test: true,
  at,
});
