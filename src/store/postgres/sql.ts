/**
 * The PostgreSQL connection pool and the three ways the stores use it: a read, a write, and a
 * transaction. Each turns a lost server into a StoreError naming DATABASE_URL (never its
 * password), so every caller answers an outage the same way.
 */
import pg from "pg";
import type { Logger } from "pino";
import { postgresStoreError } from "../errors.js";

/** int8 (COUNT, BIGINT columns) as a number: the stores keep epoch ms and ids, all below 2^53. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

/** A parameter; pg sends an array as a PostgreSQL array (`= ANY($1::text[])`). */
export type SqlValue = string | number | boolean | null | string[] | number[] | Uint8Array;

export interface SqlRunner {
  /** Rows of a query that changes nothing. */
  read<T>(text: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Runs a change; resolves with the rows it returned and how many it touched. */
  write<T = unknown>(text: string, params?: readonly SqlValue[]): Promise<{ rows: T[]; count: number }>;
}

export interface Sql extends SqlRunner {
  /** `where` for messages: host, port and database, without user or password. */
  readonly where: string;
  /** Runs `work` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /** One round trip, for readiness: resolves when the server answers. */
  ping(): Promise<void>;
  end(): Promise<void>;
  readonly ended: boolean;
}

/** `host:port/database` of a postgres:// URL, safe to print. */
export function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}

export interface SqlOptions {
  url: string;
  logger?: Logger;
  /** How long a query waits for a connection before the server counts as lost, ms. Default 5000. */
  connectTimeoutMs?: number;
  /** Connections at most. Default 10. */
  max?: number;
  /** How long one query may wait for its answer before the server counts as lost, ms. Default 15000. */
  queryTimeoutMs?: number;
  /** What the URL came from, named in errors so the reader knows what to fix. Default "DATABASE_URL". */
  source?: string;
}

/**
 * A pg client that closes its socket when its login fails on this side (the server asks for a
 * password the URL lacks): pg leaves it open, the server waits out its authentication_timeout
 * (a minute), and the process cannot exit until then.
 */
class ClosingClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error | null) => void): void;
  override connect(callback?: (err: Error | null) => void): Promise<pg.Client> | void {
    const close = (): void => void this.connection.stream.destroy();
    if (callback === undefined) {
      return super.connect().catch((e: unknown) => {
        close();
        throw e;
      });
    }
    super.connect((err: Error | null) => {
      if (err) close();
      callback(err);
    });
  }
}

export function createSql(options: SqlOptions): Sql {
  const where = describePostgresUrl(options.url);
  const pool = new pg.Pool({
    connectionString: options.url,
    Client: ClosingClient,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    max: options.max ?? 10,
    // A server that stops answering on an open connection (a network cut) counts as lost too.
    query_timeout: options.queryTimeoutMs ?? 15_000,
    keepAlive: true,
    types,
  });
  // An idle connection that the server drops emits here; unhandled it would end the process.
  // The next query finds the server gone and answers with its own error.
  pool.on("error", (e) => options.logger?.warn({ err: e.message, database: where }, "PostgreSQL dropped a connection"));
  let ended = false;

  const fail = (e: unknown, write: boolean): never => {
    throw postgresStoreError(e, where, write, options.source) ?? e;
  };
  const runner = (client: pg.Pool | pg.PoolClient, inTransaction: boolean): SqlRunner => ({
    async read<T>(text: string, params: readonly SqlValue[] = []) {
      try {
        return (await client.query(text, params as SqlValue[])).rows as T[];
      } catch (e) {
        return fail(e, inTransaction);
      }
    },
    async write<T>(text: string, params: readonly SqlValue[] = []) {
      try {
        const r = await client.query(text, params as SqlValue[]);
        return { rows: r.rows as T[], count: r.rowCount ?? 0 };
      } catch (e) {
        return fail(e, true);
      }
    },
  });

  return {
    where,
    ...runner(pool, false),
    async transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (e) {
        return fail(e, true);
      }
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await work(runner(client, true));
        await client.query("COMMIT");
        return result;
      } catch (e) {
        try {
          await client.query("ROLLBACK");
        } catch {
          // The connection is gone with the server: it must not go back to the pool.
          broken = true;
        }
        return fail(e, true);
      } finally {
        client.release(broken);
      }
    },
    async ping() {
      try {
        await pool.query("SELECT 1");
      } catch (e) {
        fail(e, false);
      }
    },
    async end() {
      if (ended) return;
      ended = true;
      await pool.end();
    },
    get ended() {
      return ended;
    },
  };
}
