/**
 * `chainpulse store migrate` brings the configured database (DATABASE_URL, else DATABASE_PATH)
 * to this version's schema; `chainpulse store copy --to <postgres url>` copies an SQLite
 * install's data into PostgreSQL, safe to run again. One line per outcome; a password never
 * printed.
 */
import { existsSync } from "node:fs";
import { ConfigError, loadConfig, readEnvironment, type Config } from "../config.js";
import { copySqliteToPostgres } from "../store/copy.js";
import { isStoreError } from "../store/errors.js";
import { migrations } from "../store/migrations.js";
import { openPostgresStore } from "../store/postgres/store.js";
import { describePostgresUrl } from "../store/postgres/sql.js";
import { openSqliteStore } from "../store/sqlite/store.js";

/** Where the command writes and what it reads; defaults are the process's own. */
export interface StoreIo {
  out(line: string): void;
  err(line: string): void;
  /** Default `readEnvironment()` (the environment over `.env`). */
  env?: Record<string, string | undefined>;
}

const processIo: StoreIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

/** The lines `chainpulse store migrate --help` prints below the usage. */
export const STORE_MIGRATE_HELP: readonly string[] = [
  "Applies the schema migrations this version has and the database has not: PostgreSQL at",
  "DATABASE_URL when it is set, else the SQLite file at DATABASE_PATH. `start` does the same",
  "on its own; run this to migrate before a deploy. Exit codes: 0 done, 2 usage error,",
  "78 configuration error or a database that cannot be reached or used.",
  "",
  "`chainpulse store copy --help` shows the other store command, which moves SQLite data to PostgreSQL.",
];

/** The lines `chainpulse store copy --help` prints below the usage. */
export const STORE_COPY_HELP: readonly string[] = [
  "Options:",
  "  --to URL    the PostgreSQL database to copy into (postgres://user:password@host:5432/db)",
  "",
  "Copies every table of the SQLite file at DATABASE_PATH into PostgreSQL. Both are migrated",
  "to this build's schema first, the SQLite file included: an older build no longer opens it.",
  "Rows already there are left as they are, so it is safe to run again; it prints how many rows",
  "of each table it copied. Stop the bot first, then set DATABASE_URL to the same URL.",
  "Exit codes: 0 done, 2 usage error, 78 configuration error or a database that cannot be",
  "reached or used.",
];

const MIGRATE_USAGE = "usage: chainpulse store migrate";
const COPY_USAGE = "usage: chainpulse store copy --to <postgres url>";

function config(io: StoreIo): Config | number {
  try {
    return loadConfig(io.env ?? readEnvironment());
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.err(`chainpulse: ${e.message}`);
    return 78;
  }
}

/** A database failure as the one line and 78; anything else is a bug and thrown. */
function failed(io: StoreIo, e: unknown): number {
  if (!isStoreError(e)) throw e;
  io.err(`chainpulse: ${e.message}`);
  return 78;
}

function versionsText(applied: readonly number[]): string {
  const byVersion = new Map(migrations.map((m) => [m.version, m.name]));
  return applied.map((v) => `${v} ${byVersion.get(v) ?? ""}`.trim()).join(", ");
}

export async function storeMigrateCommand(argv: string[], io: StoreIo = processIo): Promise<number> {
  if (argv.length > 0) {
    io.err(`chainpulse store migrate: takes no arguments (got "${argv[0]}"); the database comes from DATABASE_URL or DATABASE_PATH`);
    io.err(MIGRATE_USAGE);
    return 2;
  }
  const c = config(io);
  if (typeof c === "number") return c;
  const latest = migrations.at(-1)?.version ?? 0;
  try {
    const store =
      c.databaseUrl === undefined ? await openSqliteStore({ path: c.databasePath }) : await openPostgresStore({ url: c.databaseUrl });
    const where = c.databaseUrl === undefined ? `DATABASE_PATH (${c.databasePath})` : `DATABASE_URL (${describePostgresUrl(c.databaseUrl)})`;
    await store.close();
    io.out(
      store.applied.length === 0
        ? `The database at ${where} is at schema version ${latest} already; nothing to apply.`
        : `Applied ${store.applied.length} migration${store.applied.length === 1 ? "" : "s"} to the database at ${where} (${versionsText(store.applied)}); it is at schema version ${latest}.`,
    );
    return 0;
  } catch (e) {
    return failed(io, e);
  }
}

/** `--to URL` or `--to=URL` and nothing else; each refusal in this command's words, not the parser's. */
function targetFrom(argv: string[]): string {
  let to: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--to") {
      // A URL never starts with "-": an option there means --to was given nothing.
      const next = argv[i + 1];
      to = next === undefined || next.startsWith("-") ? "" : next;
      if (next === to) i++;
    } else if (arg.startsWith("--to=")) {
      to = arg.slice("--to=".length);
    } else {
      throw new TypeError(arg.startsWith("-") ? `unknown option "${arg}"` : `takes only --to (got "${arg}")`);
    }
  }
  if (to === undefined) throw new TypeError("--to is required: the PostgreSQL URL to copy into");
  if (to === "") throw new TypeError("--to needs the PostgreSQL URL to copy into");
  if (!URL.canParse(to) || !["postgres:", "postgresql:"].includes(new URL(to).protocol)) {
    throw new TypeError("--to must be a postgres:// URL, such as postgres://chainpulse:password@localhost:5432/chainpulse");
  }
  return to;
}

export async function storeCopyCommand(argv: string[], io: StoreIo = processIo): Promise<number> {
  let to: string;
  try {
    to = targetFrom(argv);
  } catch (e) {
    io.err(`chainpulse store copy: ${e instanceof Error ? e.message : String(e)}`);
    io.err(COPY_USAGE);
    return 2;
  }
  const c = config(io);
  if (typeof c === "number") return c;
  if (c.databasePath === ":memory:" || !existsSync(c.databasePath)) {
    io.err(`chainpulse: there is no SQLite database at DATABASE_PATH (${c.databasePath}) to copy; set DATABASE_PATH to the file the bot used`);
    return 78;
  }
  try {
    const result = await copySqliteToPostgres({ sqlitePath: c.databasePath, postgresUrl: to });
    const copied = result.tables.reduce((n, t) => n + t.copied, 0);
    const rows = result.tables.reduce((n, t) => n + t.rows, 0);
    io.out(`Copied ${copied} of ${rows} rows from DATABASE_PATH (${c.databasePath}) to PostgreSQL at ${result.where}; ${rows - copied} were there already.`);
    for (const t of result.tables) io.out(`  ${t.table}: ${t.copied} copied, ${t.rows - t.copied} already there`);
    for (const c of result.conflicts) {
      io.out(`  alert #${c.from} of ${c.platform} chat ${c.chatId} is #${c.to} now: another alert of that chat had #${c.from} in PostgreSQL`);
    }
    return 0;
  } catch (e) {
    return failed(io, e);
  }
}
