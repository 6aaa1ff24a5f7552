/**
 * Moves an SQLite install's data into PostgreSQL: both are brought to the newest schema, then
 * every table's rows are inserted in one transaction, a row whose key is already there left
 * alone, so a second run copies nothing and an interrupted one can simply run again.
 */
import type { Logger } from "pino";
import { StoreError } from "./errors.js";
import { migrations } from "./migrations.js";
import { migratePostgres } from "./postgres-migrate.js";
import { createSql, type SqlValue } from "./postgres-sql.js";
import { openSqliteStore } from "./sqlite-store.js";

export interface TableCopy {
  table: string;
  /** Rows in the SQLite table. */
  rows: number;
  /** Rows inserted; the others were there already. */
  copied: number;
}

export interface CopyResult {
  /** host:port/database of the target. */
  where: string;
  tables: TableCopy[];
}

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for any of our tables. */
const BATCH = 200;

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export async function copySqliteToPostgres(options: { sqlitePath: string; postgresUrl: string; logger?: Logger }): Promise<CopyResult> {
  const source = await openSqliteStore({ path: options.sqlitePath, logger: options.logger });
  const target = createSql({ url: options.postgresUrl, logger: options.logger, source: "--to" });
  try {
    await migratePostgres(target, { migrations, logger: options.logger });
    const tables = (
      source.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    const result = await target.transaction(async (tx) => {
      const copies: TableCopy[] = [];
      for (const table of tables) {
        const columns = (source.db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).all(table) as { name: string }[]).map((c) => c.name);
        const keyed = await tx.read<{ n: number }>(
          "SELECT COUNT(*) AS n FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype IN ('p', 'u')",
          [table],
        );
        if ((keyed[0]?.n ?? 0) === 0) {
          throw new StoreError("unusable", `the table ${table} has no key in PostgreSQL, so copying it twice would double it`);
        }
        const rows = source.db.prepare(`SELECT ${columns.map(quote).join(", ")} FROM ${quote(table)}`).raw().all() as SqlValue[][];
        let copied = 0;
        for (let i = 0; i < rows.length; i += BATCH) {
          const batch = rows.slice(i, i + BATCH);
          const values = batch.map((row, r) => `(${row.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
          const inserted = await tx.write(
            `INSERT INTO ${quote(table)} (${columns.map(quote).join(", ")}) OVERRIDING SYSTEM VALUE VALUES ${values.join(", ")} ON CONFLICT DO NOTHING`,
            batch.flat(),
          );
          copied += inserted.count;
        }
        if (columns.includes("id")) {
          // Ids were copied as they were: the identity must continue after the highest of them.
          await tx.write(
            `SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM ${quote(table)}), 1))
             WHERE pg_get_serial_sequence($1, 'id') IS NOT NULL`,
            [table],
          );
        }
        copies.push({ table, rows: rows.length, copied });
      }
      return copies;
    });
    return { where: target.where, tables: result };
  } finally {
    await target.end();
    await source.close();
  }
}
