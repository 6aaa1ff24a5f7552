/**
 * Issue 27, point 4: when the bot's own pacing of the day's compute units holds a call, the
 * service received nothing, so the person is told the bot is saving its quota (with the true
 * wait), never that the service is not answering.
 */
import { PassThrough, Readable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConsole } from "../../src/adapters/console/run.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { createBotCore } from "../../src/core/create-core.js";
import { MarketClient, type MarketCallEvent } from "../../src/market/client.js";
import { DAY_MS, MemoryUnitLedger } from "../../src/market/quota-ledger.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";

const DAILY = 100_000;
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 1 });
});
afterAll(async () => {
  await sandbox.close();
});

/**
 * A bot whose key shares a ledger in which other workers have spent all but 50 units of what
 * the pace allows a person by now: a search (5 units) goes, a batch price or swaps (100) waits.
 */
async function pacedBot() {
  const ledger = new MemoryUnitLedger();
  // The client's clock reads noon, moving on with real time: the pace allows a share of the day
  // gone by, and in the day's last hours today's would leave the batch a wait of hours.
  const noon = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS / 2;
  const shift = noon - Date.now();
  const now = (): number => Date.now() + shift;
  const t = now();
  const fraction = (t % DAY_MS) / DAY_MS;
  await ledger.add(Math.floor(t / DAY_MS), Math.ceil(DAILY * (fraction + 0.1)) - 50);
  const lines: Record<string, unknown>[] = [];
  const calls: MarketCallEvent[] = [];
  const log = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) });
  const client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, v1: { baseUrl: sandbox.url, key: sandbox.v1Key },
    retry: { maxAttempts: 1 }, timeoutMs: 5_000, dailyUnits: DAILY, unitLedger: ledger, onCall: (e) => void calls.push(e), now, logger: log,
  });
  const store = await openSqliteStore({ path: ":memory:" });
  const core = createBotCore({
    market: createCachedMarket(client, {}), store, charts: { render: () => Promise.reject(new Error("no charts")), close: async () => undefined },
    log, source: "demo data (sandbox)", budget: { perUser: 100_000, perChat: 100_000 },
  });
  // The pace counts what the ledger already holds for today.
  await client.scheduler.units.known();
  const say = async (line: string): Promise<string> => {
    const output = new PassThrough();
    let out = "";
    output.on("data", (c: Buffer) => (out += c.toString()));
    await runConsole({ core, input: Readable.from([`${line}\n`]), output });
    return out;
  };
  return { say, lines, calls, close: async () => { await client.close(); await store.close(); } };
}

describe("calls the bot's own quota pacing holds", () => {
  it("are told as saving the quota with a wait, never as the service not answering", async () => {
    const b = await pacedBot();
    for (const line of ["/price btc eth sol", "/swaps pepe"]) {
      const out = await b.say(line);
      expect(out).toMatch(/This bot is saving its daily market quota for later; try again in about \d+ (s|min)\./);
      expect(out).not.toContain("not answering");
    }
    const held = b.calls.filter((c) => c.endpoint === "batchPrices" || c.endpoint === "swaps");
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((c) => c.attempts === 0 && c.outcome === "quota")).toBe(true);
    expect(b.lines.filter((l) => l.kind !== undefined).map((l) => l.kind)).not.toContain("timeout");
    // Nothing reached the service: no warning of a failed call for the operator to chase.
    expect(b.lines.filter((l) => (l.level as number) >= 40 && l.msg === "market call failed")).toEqual([]);
    expect(b.lines.some((l) => l.msg === "market call refused before sending")).toBe(true);
    await b.close();
  });
});
