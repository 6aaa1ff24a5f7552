import { describe, expect, it } from "vitest";
import { DailyUnits, DAY_MS } from "../../src/market/quota-ledger.js";
import { redisUnitLedger } from "../../src/redis/unit-ledger.js";
import { useRedis } from "../engines/redis.js";

const { link, engine } = useRedis();

const DAY = 20_500;

describe("the compute-unit ledger in Redis", () => {
  it("adds up what every process on one API key spent today, and keeps other keys and days apart", async () => {
    const [a, b] = [redisUnitLedger(await link(), "key-one"), redisUnitLedger(await link(), "key-one")];
    const other = redisUnitLedger(await link(), "key-two");
    expect(await a.add(DAY, 30)).toBe(30);
    expect(await b.add(DAY, 12)).toBe(42);
    expect(await a.total(DAY)).toBe(42);
    expect(await other.total(DAY)).toBe(0);
    expect(await a.total(DAY + 1)).toBe(0);
  });

  it("never writes the API key itself to Redis", async () => {
    const redis = await link();
    await redisUnitLedger(redis, "secret-api-key-123").add(DAY, 1);
    const keys = await redis.client.keys("*");
    expect(keys.some((k) => k.includes("secret-api-key-123"))).toBe(false);
  });

  it("paces one process by what another spent: the day's units are shared", async () => {
    const t = DAY * DAY_MS + DAY_MS / 2;
    const [ledgerA, ledgerB] = [redisUnitLedger(await link(), "paced-key"), redisUnitLedger(await link(), "paced-key")];
    const a = new DailyUnits({ dailyUnits: 1000, ledger: ledgerA, now: () => t });
    await ledgerB.add(DAY, 1000);
    expect(a.spent).toBe(0);
    // The first read of the day asks the ledger; its answer lands before the next turn.
    await ledgerA.total(DAY);
    expect(a.spent).toBe(1000);
    expect(a.waitFor("people", 1)).toBe(DAY_MS / 2);
  });

  it("counts in process while Redis is away, and reads Redis's total again once it is back", async () => {
    const shared = await link();
    const ledger = redisUnitLedger(shared, "outage-key");
    expect(await ledger.add(DAY, 5)).toBe(5);
    await engine().stop();
    expect(await ledger.add(DAY, 7)).toBe(12);
    expect(await ledger.total(DAY)).toBe(12);
    await engine().start();
    await shared.whenUp();
    // The restarted Redis kept nothing (no persistence in tests): its count starts again.
    expect(await ledger.add(DAY, 1)).toBe(1);
  });
});
