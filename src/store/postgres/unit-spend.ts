/** The compute units spent per key and day in PostgreSQL: the statements of sqlite/unit-spend.ts with numbered parameters. */
import type { UnitSpendStore } from "../types.js";
import { forgetOnceADay } from "../unit-spend-rows.js";
import type { SqlRunner } from "./sql.js";

export function postgresUnitSpend(sql: SqlRunner): UnitSpendStore {
  const forgetOld = forgetOnceADay((before) => sql.write("DELETE FROM unit_spend WHERE day < $1", [before]));
  return {
    async addUnits(keyName, day, units) {
      await forgetOld(day);
      const { rows: [row] } = await sql.write<{ units: number | string }>(
        `INSERT INTO unit_spend (key_name, day, units) VALUES ($1, $2, $3)
         ON CONFLICT (key_name, day) DO UPDATE SET units = unit_spend.units + excluded.units RETURNING units`,
        [keyName, day, units],
      );
      return Number(row?.units ?? units);
    },
    async unitsSpent(keyName, day) {
      const [row] = await sql.read<{ units: number | string }>("SELECT units FROM unit_spend WHERE key_name = $1 AND day = $2", [keyName, day]);
      return Number(row?.units ?? 0);
    },
  };
}
