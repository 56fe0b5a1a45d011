/**
 * The contract's error table (CONTRACT.md section 3). This is the only copy: the HTTP layer, the
 * ingest host and the README table (tools/docs/render-error-table.ts) all read it.
 */
export const ERROR_TABLE = {
  '0001': 'a required parameter is missing',
  '0002': 'a parameter is malformed (wrong type, too long, not an e-mail address, control characters)',
  '0003': 'account authentication failed: unknown e-mail or wrong API key (never says which)',
  '0004': 'unknown `packageid`',
  '0005': 'no such instance in this account',
  '0006': 'instance authentication failed: unknown `instanceid` or wrong `token` (never says which)',
  '0007': 'the instance has expired; renew it first',
  '0008':
    '`webhookUrl` refused: not an absolute `https` URL, longer than 2048 characters, containing a `\\`, or its host is or resolves to a loopback, private, link-local, unique-local, multicast or otherwise non-public address (`localhost` and `*.localhost`, with or without a trailing dot, are loopback; names are resolved as the system resolver does, `/etc/hosts` included)',
  '0009': 'the request body cannot be read: malformed JSON or form, unsupported content type, or over 64 KiB',
  '0010': 'too many requests; retry after the number of seconds in the `Retry-After` header',
  '0011': 'the service is temporarily unavailable (the event store cannot be reached); safe to retry',
  '0012': 'a concurrent change to the same instance kept conflicting after internal retries; safe to retry',
  '0013': 'unknown operation, or a method that the operation does not take',
  '0014': 'internal ingest: missing or wrong bearer token',
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

/** Named aliases so that code reads `Codes.Expired` rather than a bare '0007'. */
export const Codes = {
  MissingParameter: '0001',
  MalformedParameter: '0002',
  AccountAuthFailed: '0003',
  UnknownPackage: '0004',
  NoSuchInstance: '0005',
  InstanceAuthFailed: '0006',
  InstanceExpired: '0007',
  WebhookUrlRefused: '0008',
  UnreadableBody: '0009',
  TooManyRequests: '0010',
  Unavailable: '0011',
  ConcurrentChange: '0012',
  UnknownOperation: '0013',
  IngestAuthFailed: '0014',
} as const satisfies Record<string, ErrorCode>;
