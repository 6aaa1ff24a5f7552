/**
 * The day's compute units in the database, for a bot without Redis: a restart, or a second
 * worker on the same database, paces the day from what was spent rather than from zero.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { buildCore } from "../../src/app/build-core.js";
import { storeUnitLedger } from "../../src/app/unit-ledger.js";
import { loadConfig } from "../../src/config.js";
import { DAY_MS, DailyUnits, ledgerKeyName } from "../../src/market/quota-ledger.js";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const engines = storeEngines();
const NOON = Date.UTC(2026, 10, 29, 12, 0);
const DAY = Math.floor(NOON / DAY_MS);

describe.each(ENGINES)("compute units spent on %s", (engine) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await engines.database(engine);
  });

  it("adds a key's units per day, keeps keys apart, and forgets days over a week old", async () => {
    const store = await db.open();
    expect(await store.unitSpend.addUnits("k1", DAY, 50)).toBe(50);
    expect(await store.unitSpend.addUnits("k1", DAY, 5.5)).toBe(55.5);
    expect(await store.unitSpend.addUnits("k2", DAY, 10)).toBe(10);
    expect(await store.unitSpend.unitsSpent("k1", DAY)).toBe(55.5);
    expect(await store.unitSpend.unitsSpent("k1", DAY + 1)).toBe(0);
    await store.unitSpend.addUnits("k1", DAY + 8, 1);
    expect(await store.unitSpend.unitsSpent("k1", DAY)).toBe(0);
  });

  it("lets a restarted process pace the day from what the one before it spent", async () => {
    const before = await db.open();
    const first = new DailyUnits({ dailyUnits: 10_000, ledger: storeUnitLedger(before.unitSpend, "the-api-key"), now: () => NOON });
    for (let i = 0; i < 4; i++) first.charge(100, "people");
    // Each charge is written as it is made, without waiting: wait here for the four.
    await expect.poll(() => before.unitSpend.unitsSpent(ledgerKeyName("the-api-key"), DAY)).toBe(400);
    const after = await db.open();
    const restarted = new DailyUnits({ dailyUnits: 10_000, ledger: storeUnitLedger(after.unitSpend, "the-api-key"), now: () => NOON });
    await restarted.known();
    expect(restarted.spent).toBe(400);
    const otherKey = new DailyUnits({ dailyUnits: 10_000, ledger: storeUnitLedger(after.unitSpend, "another-key"), now: () => NOON });
    await otherKey.known();
    expect(otherKey.spent).toBe(0);
  });
});

describe("a bot without Redis", () => {
  it("starts its day's pace from the units the run before it spent, read from its database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cp-units-"));
    try {
      const config = loadConfig({ DATABASE_PATH: join(dir, "bot.db"), MARKET_API_DAILY_UNITS: "100000" });
      const first = await buildCore(config, { log: pino({ level: "silent" }) });
      await first.market.tokenDetail(first.sandbox?.market.tokens[0]?.id ?? "");
      await expect.poll(async () => (await first.store.unitSpend.unitsSpent(ledgerKeyName(first.sandbox?.v2Key ?? ""), Math.floor(Date.now() / DAY_MS)))).toBeGreaterThan(0);
      const spent = first.scheduler.units.spent;
      await first.close();
      const second = await buildCore(config, { log: pino({ level: "silent" }) });
      await second.scheduler.units.known();
      expect(second.scheduler.units.spent).toBe(spent);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
