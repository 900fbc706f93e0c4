import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { postgresOps } from './dialect/postgres.js';

/**
 * Statements that may run again on a fresh connection when the first one's was lost, outside a
 * transaction: reads, and the start of a transaction (nothing has happened yet). Reads that act
 * (advisory locks, notifications, sequences, settings) are left out.
 */
const REPEATABLE = /^\s*(select|begin|start transaction)\b/i;
const ACTING = /\b(pg_notify|pg_(try_)?advisory_\w+|nextval|setval|set_config)\s*\(/i;
const BEGIN = /^\s*(begin|start transaction)\b/i;
const END = /^\s*(commit|rollback)\s*$/i;
const ROLLBACK = /^\s*rollback\s*$/i;

/** pg refused to send the statement on a client whose connection had already failed: it never ran. */
const NEVER_SENT = /is not queryable/;

export function isRepeatable(text: string): boolean {
  return REPEATABLE.test(text) && !ACTING.test(text);
}

/** May `text`, which failed with `err`, run again on another connection (outside a transaction)? */
function mayRunAgain(text: string, err: unknown): boolean {
  if (!postgresOps.isConnectionLost(err)) return false;
  return isRepeatable(text) || NEVER_SENT.test((err as Error).message ?? '');
}

const NOTHING = { command: 'SELECT', rowCount: 0, rows: [] } as PostgresQueryResult<never>;

/**
 * One pooled connection as Kysely sees it. A lost connection (pg_terminate_backend, a failover) must
 * not reach the API as a 500 (DESIGN §5: error 6 is an unexpected fault): the client is released with
 * its error, so that the pool destroys it instead of handing it out again; a repeatable statement
 * outside a transaction runs once more on a fresh connection; anything else fails with the
 * connection's error, which http/errors.ts answers with 503 `{error: 12}`.
 */
class KeptClient implements PostgresPoolClient {
  private client: pg.PoolClient | undefined;
  private lost: Error | undefined;
  private inTransaction = false;
  private readonly onError = (err: Error) => {
    this.lost ??= err;
  };

  constructor(
    private readonly pool: pg.Pool,
    client: pg.PoolClient,
  ) {
    this.take(client);
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    what: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof what !== 'string') return this.connected().query(what as never) as PostgresCursor<R>;
    return this.run<R>(what, parameters ?? []);
  }

  release(): void {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    client.removeListener('error', this.onError);
    // A client with an error (or, should it happen, a transaction left open) is destroyed by the pool.
    client.release(this.lost ?? this.inTransaction);
  }

  private async run<R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    if (this.lost) {
      if (!this.inTransaction) await this.replace();
      // The server rolled the transaction back when the connection ended: nothing is left to roll
      // back, and the statement that failed keeps its own error for the caller.
      else if (ROLLBACK.test(text)) {
        this.inTransaction = false;
        return NOTHING;
      } else throw this.lost;
    }
    try {
      return await this.send<R>(text, parameters);
    } catch (err) {
      if (!this.noteLoss(err) || this.inTransaction || !mayRunAgain(text, err)) throw err;
    }
    await this.replace();
    try {
      return await this.send<R>(text, parameters);
    } catch (err) {
      this.noteLoss(err);
      throw err;
    }
  }

  /** Whether `err` is a lost connection; if so, this client is not to be used again. */
  private noteLoss(err: unknown): boolean {
    if (!postgresOps.isConnectionLost(err)) return false;
    this.lost ??= err as Error;
    return true;
  }

  private async send<R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const result = await this.connected().query(text, parameters as unknown[]);
    if (BEGIN.test(text)) this.inTransaction = true;
    else if (END.test(text)) this.inTransaction = false;
    return result as unknown as PostgresQueryResult<R>;
  }

  /** Gives the lost client back for destruction and takes a fresh one. */
  private async replace(): Promise<void> {
    this.release();
    this.lost = undefined;
    this.inTransaction = false;
    this.take(await liveClient(this.pool));
  }

  private take(client: pg.PoolClient): void {
    this.client = client;
    client.on('error', this.onError);
  }

  private connected(): pg.PoolClient {
    if (!this.client) throw this.lost ?? new Error('Connection released');
    return this.client;
  }
}

/** Socket errors of a connection that could not be opened (the database is down or unreachable). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * A database that cannot be reached at all is the same to a caller as a connection lost: SQLSTATE 08001
 * (sqlclient_unable_to_establish_sqlconnection), which db/dialect `isConnectionLost` reads and
 * http/errors.ts answers with 503 `{error: 12}`, never a 500.
 */
export class DatabaseUnreachable extends Error {
  override readonly name = 'DatabaseUnreachable';
  readonly code = '08001';
  constructor(cause: unknown) {
    super(`The database cannot be reached (${(cause as { code?: string } | null)?.code ?? 'no answer'})`, {
      cause,
    });
  }
}

function unreachableOr(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  const timedOut = /timeout exceeded when trying to connect/i.test((err as Error | null)?.message ?? '');
  return (typeof code === 'string' && UNREACHABLE.has(code)) || timedOut ? new DatabaseUnreachable(err) : err;
}

/** A pooled client; a database that cannot be reached throws `DatabaseUnreachable`. */
async function connect(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (err) {
    throw unreachableOr(err);
  }
}

/** The pg pool as Kysely's PostgresDialect takes it, each connection a `KeptClient`. */
export function keptPool(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => new KeptClient(pool, await connect(pool)),
    end: () => pool.end(),
  };
}

/**
 * A client whose connection answers. The connection that failed was seldom lost alone (a restart, a
 * failover, pg_terminate_backend of them all): the pool's idle clients may be dead too without having
 * heard it yet, so each is tried with a ping and destroyed when lost, until one answers or the pool
 * opens a new one.
 */
async function liveClient(pool: pg.Pool): Promise<pg.PoolClient> {
  for (let tries = (pool.options.max ?? 10) + 1; ; tries--) {
    const client = await connect(pool);
    try {
      await client.query('select 1');
      return client;
    } catch (err) {
      client.release(err as Error);
      if (tries <= 1 || !postgresOps.isConnectionLost(err)) throw err;
    }
  }
}

/**
 * One statement on any pooled connection (pg's `pool.query` releases a failed client with its error,
 * so that a lost one is destroyed), run once more on a live connection when its connection was lost and
 * it may run again: a read, or what the caller knows to be harmless twice (`repeatable`).
 */
export async function queryKept<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  query: pg.QueryConfig,
  repeatable = false,
): Promise<pg.QueryResult<R>> {
  try {
    return await pool.query<R>(query);
  } catch (err) {
    const error = unreachableOr(err);
    if (error !== err) throw error;
    if (!(repeatable ? postgresOps.isConnectionLost(err) : mayRunAgain(query.text, err))) throw err;
  }
  const client = await liveClient(pool);
  try {
    const result = await client.query<R>(query);
    client.release();
    return result;
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
}
