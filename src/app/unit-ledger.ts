/**
 * The day's compute units of one API key in the database, for a bot without Redis: a restart
 * (a deploy, a crash loop) paces the day from what was spent, not from zero, and workers on one
 * PostgreSQL count against one total. While the database cannot be written the process counts
 * in its own ledger (the store's own outage is logged where it is met), and the database's total
 * is read again once it answers.
 */
import { ledgerKeyName, MemoryUnitLedger, type UnitLedger } from "../market/quota-ledger.js";
import type { UnitSpendStore } from "../store/types.js";

export function storeUnitLedger(store: UnitSpendStore, apiKey: string): UnitLedger {
  const local = new MemoryUnitLedger();
  const name = ledgerKeyName(apiKey);
  return {
    async add(day, units) {
      const mine = await local.add(day, units);
      try {
        return Math.max(mine, await store.addUnits(name, day, units));
      } catch {
        return mine;
      }
    },
    async total(day) {
      try {
        return Math.max(await local.total(day), await store.unitsSpent(name, day));
      } catch {
        return local.total(day);
      }
    },
  };
}
