/**
 * Moves an SQLite install's data into PostgreSQL: both are brought to the newest schema, then
 * every table's rows are inserted in one transaction, a row whose key is already there left
 * alone, so a second run copies nothing and an interrupted one can simply run again.
 *
 * Alerts merge by identity instead, since a target in use has alerts of its own numbered from
 * the same 1: an alert already there (same chat, token, rule, level and creation) is left
 * alone; a different one holding the copied number is a real conflict, reported, and the
 * copied alert takes the chat's next number; every chat's counter ends past the largest
 * number it holds; firings follow their alert's new id.
 */
import type Database from "better-sqlite3";
import type { Logger } from "pino";
import { StoreError } from "./errors.js";
import { migrations, NewerSchemaError } from "./migrations.js";
import { migratePostgres } from "./postgres/migrate.js";
import { createSql, type SqlRunner, type SqlValue } from "./postgres/sql.js";
import { openSqliteStore } from "./sqlite/store.js";

export interface TableCopy {
  table: string;
  /** Rows in the SQLite table. */
  rows: number;
  /** Rows inserted; the others were there already. */
  copied: number;
}

/** A copied alert whose number another alert of its chat held in the target. */
export interface AlertConflict {
  platform: string;
  chatId: string;
  /** Its number in the SQLite file, and the one it has now. */
  from: number;
  to: number;
}

export interface CopyResult {
  /** host:port/database of the target. */
  where: string;
  tables: TableCopy[];
  conflicts: AlertConflict[];
}

/** Copied by `copyAlerts`, in this order, not row by row. */
const ALERT_TABLES = ["alerts", "alert_firings", "alert_numbers"] as const;

type Row = Record<string, SqlValue>;

/**
 * The alert tables merged by identity: see the file's comment. Ids are the target's own
 * (the source's would collide with its alerts); `alert_firings.alert_id` follows them.
 */
async function copyAlerts(db: Database.Database, tx: SqlRunner): Promise<{ copies: TableCopy[]; conflicts: AlertConflict[] }> {
  const conflicts: AlertConflict[] = [];
  const ids = new Map<number, number>();
  const alerts = db.prepare("SELECT * FROM alerts ORDER BY id").all() as Row[];
  let copiedAlerts = 0;
  const insert = async (table: string, row: Row): Promise<number> => {
    const columns = Object.keys(row).filter((c) => c !== "id");
    const { rows } = await tx.write<{ id: number }>(
      `INSERT INTO ${quote(table)} (${columns.map(quote).join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")}) RETURNING id`,
      columns.map((c) => row[c] ?? null),
    );
    return rows[0]?.id as number;
  };
  for (const a of alerts) {
    const [same] = await tx.read<{ id: number }>(
      "SELECT id FROM alerts WHERE platform = $1 AND chat_id = $2 AND token_id = $3 AND rule = $4 AND level = $5 AND created_at = $6",
      [a.platform ?? null, a.chat_id ?? null, a.token_id ?? null, a.rule ?? null, a.level ?? null, a.created_at ?? null],
    );
    if (same !== undefined) {
      ids.set(a.id as number, same.id);
      continue;
    }
    const [taken] = await tx.read<{ id: number }>("SELECT id FROM alerts WHERE platform = $1 AND chat_id = $2 AND number = $3", [
      a.platform ?? null, a.chat_id ?? null, a.number ?? null,
    ]);
    let number = a.number as number;
    if (taken !== undefined) {
      const [top] = await tx.read<{ n: number }>(
        `SELECT GREATEST(COALESCE((SELECT MAX(number) FROM alerts WHERE platform = $1 AND chat_id = $2), 0),
                         COALESCE((SELECT last_number FROM alert_numbers WHERE platform = $1 AND chat_id = $2), 0)) AS n`,
        [a.platform ?? null, a.chat_id ?? null],
      );
      number = (top?.n ?? 0) + 1;
      conflicts.push({ platform: String(a.platform), chatId: String(a.chat_id), from: a.number as number, to: number });
    }
    ids.set(a.id as number, await insert("alerts", { ...a, number }));
    copiedAlerts++;
  }

  const firings = db.prepare("SELECT * FROM alert_firings ORDER BY id").all() as Row[];
  let copiedFirings = 0;
  for (const f of firings) {
    const alertId = ids.get(f.alert_id as number) ?? null;
    const [same] = await tx.read<{ id: number }>(
      "SELECT id FROM alert_firings WHERE alert_id IS NOT DISTINCT FROM $1 AND platform = $2 AND chat_id = $3 AND kind = $4 AND fired_at = $5 AND payload = $6",
      [alertId, f.platform ?? null, f.chat_id ?? null, f.kind ?? null, f.fired_at ?? null, f.payload ?? null],
    );
    if (same !== undefined) continue;
    await insert("alert_firings", { ...f, alert_id: alertId });
    copiedFirings++;
  }

  const counters = db.prepare("SELECT * FROM alert_numbers").all() as Row[];
  let copiedCounters = 0;
  const chats = new Map<string, [SqlValue, SqlValue]>();
  for (const r of [...counters, ...alerts]) chats.set(`${String(r.platform)}\u0000${String(r.chat_id)}`, [r.platform ?? null, r.chat_id ?? null]);
  const copiedLast = new Map(counters.map((c) => [`${String(c.platform)}\u0000${String(c.chat_id)}`, c.last_number as number]));
  for (const [key, [platform, chatId]] of chats) {
    // Past every number the chat holds now and every one the source ever gave, so none is reused.
    const { rows } = await tx.write<{ inserted: boolean }>(
      `INSERT INTO alert_numbers (platform, chat_id, last_number)
       VALUES ($1, $2, GREATEST($3, COALESCE((SELECT MAX(number) FROM alerts WHERE platform = $1 AND chat_id = $2), 0)))
       ON CONFLICT (platform, chat_id) DO UPDATE SET last_number = GREATEST(alert_numbers.last_number, excluded.last_number)
       RETURNING (xmax = 0) AS inserted`,
      [platform, chatId, copiedLast.get(key) ?? 0],
    );
    if (rows[0]?.inserted === true && copiedLast.has(key)) copiedCounters++;
  }
  return {
    copies: [
      { table: "alerts", rows: alerts.length, copied: copiedAlerts },
      { table: "alert_firings", rows: firings.length, copied: copiedFirings },
      { table: "alert_numbers", rows: counters.length, copied: copiedCounters },
    ],
    conflicts,
  };
}

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for any of our tables. */
const BATCH = 200;

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export async function copySqliteToPostgres(options: { sqlitePath: string; postgresUrl: string; logger?: Logger }): Promise<CopyResult> {
  const source = await openSqliteStore({ path: options.sqlitePath, logger: options.logger });
  const target = createSql({ url: options.postgresUrl, logger: options.logger, source: "--to" });
  try {
    await migratePostgres(target, { migrations, logger: options.logger }).catch((e: unknown) => {
      throw e instanceof NewerSchemaError ? new StoreError("unusable", `the PostgreSQL database at --to (${target.where}) cannot be used: ${e.message}`, { write: true, cause: e }) : e;
    });
    const tables = (
      source.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    const result = await target.transaction(async (tx) => {
      const copies: TableCopy[] = [];
      for (const table of tables.filter((t) => !(ALERT_TABLES as readonly string[]).includes(t))) {
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
      const merged = await copyAlerts(source.db, tx);
      return { copies: [...copies, ...merged.copies].sort((a, b) => a.table.localeCompare(b.table)), conflicts: merged.conflicts };
    });
    return { where: target.where, tables: result.copies, conflicts: result.conflicts };
  } finally {
    await target.end();
    await source.close();
  }
}
