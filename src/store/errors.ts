/**
 * The store's own failures, so that the core can answer each with a sentence of its own
 * instead of "something went wrong": a value the chat may not store, a database that cannot
 * be reached, one that cannot be written (read-only, disk full), one that cannot be opened.
 */
import { statfsSync } from "node:fs";
import { dirname } from "node:path";
import type { Logger } from "pino";

export type StoreErrorKind =
  /** The value was refused (unknown time zone, bad chain name); `userMessage` says so to the user. */
  | "invalid"
  /** The database server cannot be reached right now (PostgreSQL down, connection lost). */
  | "unavailable"
  /** The server did not answer in the time a person waits (hung); a write's outcome is unknown. */
  | "timeout"
  /** The database file or its folder cannot be written. */
  | "read-only"
  /** The disk under the database is full. */
  | "full"
  /** The database cannot be opened or is damaged; the message names the setting to fix. */
  | "unusable";

/** A message id of locales/*.ftl and its arguments. */
export interface UserMessage {
  readonly key: string;
  readonly args?: Readonly<Record<string, string | number>>;
}

export class StoreError extends Error {
  override readonly name = "StoreError";
  readonly kind: StoreErrorKind;
  /** Whether the failed call wanted to change something (a write) or only to read. */
  readonly write: boolean;
  /** For a refused value: the message (locales/*.ftl) the user reads, in their chat's language; `message` is the log's. */
  readonly userMessage: UserMessage | undefined;

  constructor(kind: StoreErrorKind, message: string, options: { write?: boolean; cause?: unknown; userMessage?: UserMessage } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.write = options.write ?? false;
    this.userMessage = options.userMessage;
  }
}

export function isStoreError(e: unknown): e is StoreError {
  return e instanceof StoreError;
}

/** The store cannot answer now (down, or hung): a failure of the store, not of whatever asked it. */
export function isStoreUnreachable(e: unknown): e is StoreError {
  return isStoreError(e) && (e.kind === "unavailable" || e.kind === "timeout");
}

/** What `read` answered, or undefined while the store cannot be reached; any other failure is thrown. */
export async function unlessUnreachable<T>(read: Promise<T> | undefined): Promise<T | undefined> {
  try {
    return await read;
  } catch (e) {
    if (isStoreUnreachable(e)) return undefined;
    throw e;
  }
}

/**
 * Logs a background turn's failure (`what`: "buy feed turn failed"). A store outage is already
 * the database's warning and readiness check: a turn failing every tick of it says nothing more
 * and goes to debug. Anything else failing there is a bug, logged as an error with its stack.
 */
export function logTurnFailure(logger: Pick<Logger, "debug" | "error">, e: unknown, what: string): void {
  if (isStoreUnreachable(e)) logger.debug({ err: e.message }, `${what}: store unreachable`);
  else logger.error({ err: e }, what);
}

function codeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** better-sqlite3's error codes that mean the file cannot be written (extended codes included). */
const SQLITE_READ_ONLY = /^SQLITE_(READONLY|PERM|CANTOPEN|AUTH)/;
const SQLITE_FULL = /^SQLITE_FULL/;
const SQLITE_IO = /^SQLITE_IOERR/;
const SQLITE_DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;

/** Free bytes below which the disk under the database counts as full. */
const FULL_BELOW_BYTES = 64 * 1024;

/**
 * Whether the disk under `path` is (all but) full. SQLite reports a full disk as SQLITE_FULL
 * only when a page cannot be added; opening an existing file whose -wal or -shm cannot grow
 * says "disk I/O error" or "unable to open", which would otherwise read as a permission fault.
 */
function diskFull(path: string): boolean {
  try {
    const fs = statfsSync(dirname(path));
    return fs.bavail * fs.bsize < FULL_BELOW_BYTES;
  } catch {
    return false;
  }
}

/** A better-sqlite3 failure as a StoreError when it is about the database, else undefined. */
export function sqliteStoreError(e: unknown, path: string, write: boolean): StoreError | undefined {
  if (e instanceof StoreError) return e;
  const code = codeOf(e);
  if (code === undefined) return undefined;
  const detail = (e as Error).message;
  if ((SQLITE_READ_ONLY.test(code) || SQLITE_IO.test(code)) && path !== ":memory:" && diskFull(path)) {
    return new StoreError("full", `the disk under DATABASE_PATH (${path}) is full: ${detail}`, { write, cause: e });
  }
  if (SQLITE_READ_ONLY.test(code)) {
    return new StoreError("read-only", `the SQLite database at DATABASE_PATH (${path}) cannot be written: ${detail}`, { write, cause: e });
  }
  if (SQLITE_FULL.test(code) || (SQLITE_IO.test(code) && /full|space/i.test(detail))) {
    return new StoreError("full", `the disk under DATABASE_PATH (${path}) is full: ${detail}`, { write, cause: e });
  }
  if (SQLITE_IO.test(code)) {
    return new StoreError("read-only", `the SQLite database at DATABASE_PATH (${path}) failed to write: ${detail}`, { write, cause: e });
  }
  if (SQLITE_DAMAGED.test(code)) {
    return new StoreError("unusable", `the SQLite database at DATABASE_PATH (${path}) is damaged: ${detail}`, { write, cause: e });
  }
  return undefined;
}

/**
 * Network errors and PostgreSQL's connection, shutdown and resource classes: the server cannot
 * serve us now, which a retry in a minute may fix. Anything else (a constraint, a bug) is not.
 */
const NODE_NETWORK = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
const PG_UNAVAILABLE_CLASSES = ["08", "53", "57P"];

/**
 * PostgreSQL refusing the login (class 28: a wrong password, a role that does not exist, no
 * pg_hba.conf entry), a database that does not exist, and a role without the rights the bot
 * needs: a setting to fix, which no retry will.
 */
const PG_LOGIN_CLASS = "28";
const PG_NO_DATABASE = "3D000";
const PG_NO_PRIVILEGE = "42501";
/** pg's own words when the server asks for a SCRAM password and the URL has none. */
const NO_PASSWORD = /^SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a (non-empty )?string/;

/** A pg failure as a StoreError when the server cannot be reached or used, else undefined. */
export function postgresStoreError(e: unknown, where: string, write: boolean, source = "DATABASE_URL"): StoreError | undefined {
  if (e instanceof StoreError) return e;
  const code = codeOf(e);
  const message = e instanceof Error ? e.message : String(e);
  const database = `the PostgreSQL database at ${source} (${where})`;
  if (NO_PASSWORD.test(message)) {
    return new StoreError("unusable", `${database} cannot be used: the server asks for a password and ${source} has none; add it (postgres://user:password@host:5432/db)`, { write, cause: e });
  }
  if (code !== undefined && (code.startsWith(PG_LOGIN_CLASS) || code === PG_NO_DATABASE)) {
    return new StoreError("unusable", `${database} cannot be used: ${message}; check the user, password and database name in ${source}`, { write, cause: e });
  }
  if (code === PG_NO_PRIVILEGE) {
    return new StoreError("unusable", `${database} cannot be used: ${message}; grant the user in ${source} the rights on that database`, { write, cause: e });
  }
  const lost =
    (code !== undefined && (NODE_NETWORK.has(code) || PG_UNAVAILABLE_CLASSES.some((c) => code.startsWith(c)))) ||
    /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|Query read timeout/i.test(message);
  if (!lost) return undefined;
  return new StoreError("unavailable", `${database} cannot be reached: ${message}`, { write, cause: e });
}
