/**
 * Brings a database up to the newest schema: each pending migration runs in its own
 * transaction and is recorded in `schema_migrations`, so it applies exactly once, also when
 * two processes open the same file at the same time.
 */
import type Database from "better-sqlite3";
import type { Logger } from "pino";
import { NewerSchemaError, type Migration } from "../migrations.js";

export interface MigrateOptions {
  migrations: readonly Migration[];
  logger?: Logger;
  /** Recorded as `applied_at`. Default: the system clock. */
  now?: () => Date;
}

function checkOrder(migrations: readonly Migration[]): void {
  let previous = 0;
  for (const m of migrations) {
    if (!Number.isInteger(m.version) || m.version <= previous) {
      throw new Error(`migration "${m.name}" has version ${m.version}: versions must be integers increasing from 1`);
    }
    previous = m.version;
  }
}

/**
 * Applies the migrations the database has not seen and returns their versions.
 * @throws when the database was written by a newer build (a version this list lacks).
 */
export function migrate(db: Database.Database, options: MigrateOptions): number[] {
  const { migrations, logger, now = () => new Date() } = options;
  checkOrder(migrations);
  db.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )
  `);
  const appliedVersions = db.prepare("SELECT version FROM schema_migrations ORDER BY version").pluck();
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");

  const known = new Set(migrations.map((m) => m.version));
  const unknown = (appliedVersions.all() as number[]).filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new NewerSchemaError(Math.max(...unknown));
  }

  const applied: number[] = [];
  for (const m of migrations) {
    // Re-checked inside the write lock: another process may have applied it meanwhile.
    const ran = db
      .transaction(() => {
        if ((appliedVersions.all() as number[]).includes(m.version)) return false;
        if (typeof m.up === "string") db.exec(m.up);
        else m.up(db);
        record.run(m.version, m.name, now().toISOString());
        return true;
      })
      .immediate();
    if (ran) {
      applied.push(m.version);
      logger?.info({ version: m.version, migration: m.name }, "database migration applied");
    }
  }
  return applied;
}
