/** The compute units spent per key and day in SQLite. Plain SQL, so PostgreSQL runs the same statements. */
import type Database from "better-sqlite3";
import type { UnitSpendStore } from "../types.js";
import { forgetOnceADay } from "../unit-spend-rows.js";

export function sqliteUnitSpend(db: Database.Database): UnitSpendStore {
  const add = db.prepare(`
    INSERT INTO unit_spend (key_name, day, units) VALUES (?, ?, ?)
    ON CONFLICT (key_name, day) DO UPDATE SET units = unit_spend.units + excluded.units RETURNING units`);
  const forget = db.prepare("DELETE FROM unit_spend WHERE day < ?");
  const forgetOld = forgetOnceADay((before) => forget.run(before));
  const read = db.prepare("SELECT units FROM unit_spend WHERE key_name = ? AND day = ?");
  return {
    async addUnits(keyName, day, units) {
      await forgetOld(day);
      return (add.get(keyName, day, units) as { units: number }).units;
    },
    async unitsSpent(keyName, day) {
      return (read.get(keyName, day) as { units: number } | undefined)?.units ?? 0;
    },
  };
}
