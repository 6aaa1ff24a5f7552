/** The compute units spent per key and day in SQLite. Plain SQL, so PostgreSQL runs the same statements. */
import type Database from "better-sqlite3";
import type { UnitSpendStore } from "../types.js";
import { KEEP_UNIT_DAYS } from "../unit-spend-rows.js";

export function sqliteUnitSpend(db: Database.Database): UnitSpendStore {
  const add = db.prepare(`
    INSERT INTO unit_spend (key_name, day, units) VALUES (?, ?, ?)
    ON CONFLICT (key_name, day) DO UPDATE SET units = unit_spend.units + excluded.units RETURNING units`);
  const forget = db.prepare("DELETE FROM unit_spend WHERE day < ?");
  const read = db.prepare("SELECT units FROM unit_spend WHERE key_name = ? AND day = ?");
  // Every market call adds its units: old days are dropped once a day, not at each call.
  let forgotBefore: number | undefined;
  return {
    async addUnits(keyName, day, units) {
      if (forgotBefore !== day - KEEP_UNIT_DAYS) {
        forget.run(day - KEEP_UNIT_DAYS);
        forgotBefore = day - KEEP_UNIT_DAYS;
      }
      return (add.get(keyName, day, units) as { units: number }).units;
    },
    async unitsSpent(keyName, day) {
      return (read.get(keyName, day) as { units: number } | undefined)?.units ?? 0;
    },
  };
}
