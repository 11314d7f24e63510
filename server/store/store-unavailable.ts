/** Errors raised by the store's own database client: only these can mean the store is unavailable. */
const storeErrors = new WeakSet<object>();

/** Marks an error as the database client's, so an unrelated socket error (an upstream's) is not taken for one. */
export function markStoreError(error: unknown): void {
  if (typeof error === 'object' && error !== null) storeErrors.add(error);
}

/**
 * Whether a store error means the database could not be reached or dropped the connection (restarting,
 * failing over, partitioned away), rather than a query it refused. Such a request may succeed if it is
 * simply tried again later, so it is answered 503 with `retry-after`, not 500.
 *
 * @example
 * // both raised by the store's client (markStoreError):
 * isStoreUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })) // → true
 * isStoreUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' })) // → false
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || !storeErrors.has(error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' && (socketCodes.has(code) || code.startsWith('08') || serverCodes.has(code))) return true;
  return lostConnectionMessages.some((message) => error.message.startsWith(message));
}

/** Node's socket errors on connecting or on a connection that broke. */
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's SQLSTATEs besides class 08 (connection exception): the server is shutting down or
 * starting (57P01 admin shutdown, which `pg_terminate_backend` also sends, 57P02 crash shutdown, 57P03
 * cannot connect now) or has no connection to spare (53300).
 */
const serverCodes = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres (pg 8, pg-pool 3) reports a lost or unobtainable connection with these messages and no code. */
const lostConnectionMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Query read timeout',
];
