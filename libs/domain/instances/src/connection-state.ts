/** The connection states a gateway reports for an instance (docs/api.md 13.2). */
export const CONNECTION_STATES = ['starting', 'qr', 'authorized', 'notAuthorized', 'blocked', 'sleep'] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

/** The longest label an instance may carry (docs/api.md 13.1). */
export const MAX_LABEL_LENGTH = 64;
