/**
 * Error codes of the API (DESIGN §5; spec §8 keeps the meaning of 1-4).
 * Each code has one HTTP status, so a reply is consistent wherever it is raised.
 */
export const ErrorCode = {
  noSession: 1,
  tooLarge: 2,
  fleetCannotBeSet: 3,
  invalidInput: 4,
  notFound: 5,
  unexpected: 6,
  accessDenied: 7,
  wrongCredentials: 8,
  tooManyRequests: 9,
  conflict: 10,
  /** The server's disk (SQLite file, attachments, PostgreSQL) is full; spec §8 and DESIGN §5 have no code for it. */
  storageFull: 11,
  /**
   * The database cannot be reached for a moment (a lost connection, a failover): try again after
   * `Retry-After`. Spec §8 and DESIGN §5 have no code for a temporary unavailability.
   */
  unavailable: 12,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ERROR_STATUS: Record<ErrorCodeValue, number> = {
  1: 401,
  2: 413,
  3: 400,
  4: 400,
  5: 404,
  6: 500,
  7: 403,
  8: 401,
  9: 429,
  10: 409,
  // 507 Insufficient Storage (RFC 4918 §11.5): the request was fine, the server cannot store it now.
  11: 507,
  // 503 Service Unavailable (RFC 9110 §15.6.4): temporary, with Retry-After.
  12: 503,
};

export const ERROR_REASON: Record<ErrorCodeValue, string> = {
  1: 'Session is not initialized',
  2: 'Too large',
  3: 'Fleet cannot be set',
  4: 'Invalid input',
  5: 'Not found',
  6: 'Unexpected fault',
  7: 'Access denied',
  8: 'Wrong user name or password',
  9: 'Too many requests',
  10: 'Conflict',
  11: "The server's disk is full",
  12: 'Service temporarily unavailable',
};

/** Seconds a 503 `{error: 12}` asks the client to wait (`Retry-After`): a new connection takes moments. */
export const UNAVAILABLE_RETRY_SECONDS = 2;
