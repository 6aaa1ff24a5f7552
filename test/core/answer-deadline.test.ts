/**
 * Every command answered by its deadline, whatever the sandbox's faults: the whole core over the
 * real client, scheduler and cache, with one hand-moved clock for the market, the scheduler, the
 * cache's deadline and the sandbox's latency and quota.
 */
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { renderText } from "../../src/adapters/console/render.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { createMemoryStore } from "../../src/cache/memory-store.js";
import type { CacheStore } from "../../src/cache/store.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import { staleNote, type Freshness } from "../../src/core/answer-deadline.js";
import { formatSince } from "../../src/core/format/index.js";
import { messages } from "../../src/i18n/index.js";
import type { ChatContext } from "../../src/core/command.js";
import { createBotCore } from "../../src/core/create-core.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type FaultSpec, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import { lines, type Lines } from "../lines.js";
import { steppedClock, type SteppedClock } from "../market/helpers.js";

/** 2026-11-22 12:00 UTC. */
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

const noCharts: ChartRenderer = {
  render: () => Promise.reject(new Error("charts are not part of this test")),
  close: async () => undefined,
};

const chat: ChatContext = { platform: "console", chatId: "c", userId: "u", isPrivate: true, isAdmin: async () => true };

interface World {
  sandbox: Sandbox;
  clock: SteppedClock;
  client: MarketClient;
  answers: Freshness[];
  logs: string[];
  /** The key of each entry the cache keeps, as it keeps it. */
  stored: Lines;
  /** Starts a command; the promise resolves with what the console shows. */
  ask(text: string): Promise<string>;
  /** Resolves once the sandbox has received `count` requests to `endpoint`. */
  sent(endpoint: string, count: number): Promise<void>;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function world(opts: { rps?: number; dailyUnits?: number; faults?: FaultSpec[]; retries?: number } = {}): Promise<World> {
  const clock = steppedClock(T0);
  const sandbox = await startSandbox({
    now: clock.now, seed: 1, dailyUnits: opts.dailyUnits, limiterClock: clock.now, delay: clock.sleep, faults: opts.faults,
  });
  const logs: string[] = [];
  const log = pino({ level: "info" }, { write: (l: string) => logs.push(l) });
  const client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
    rps: opts.rps,
    retry: { maxAttempts: opts.retries ?? 1 },
    now: clock.now,
    sleep: clock.sleep,
    logger: log,
  });
  const store = await openSqliteStore({ path: ":memory:" });
  const answers: Freshness[] = [];
  const stored = lines();
  const memory = createMemoryStore({ maxBytes: 32 * 1024 * 1024, now: clock.now });
  const cacheStore: CacheStore = {
    get: (key) => memory.get(key),
    set: async (key, entry, keepMs) => {
      await memory.set(key, entry, keepMs);
      stored.push(key);
    },
  };
  const core = createBotCore({
    market: createCachedMarket(client, { now: clock.now, sleep: clock.sleep, store: cacheStore }),
    store, charts: noCharts, log, source: "demo data (sandbox)",
    now: clock.now, answerDeadlineMs: 2_500, onAnswer: (f) => answers.push(f),
  });
  // Closed in reverse: the sandbox first, so a hung request ends before the client waits for it.
  closers.push(() => store.close(), () => client.close(), () => sandbox.close());
  return {
    sandbox, clock, client, answers, logs, stored,
    async ask(text) {
      const reply = await core.handleText(chat, text);
      return reply === null ? "" : renderText(reply, { now: clock.now });
    },
    sent: (endpoint, count) => sandbox.received(endpoint, count),
  };
}

describe("the answer deadline", () => {
  it("serves the labelled cached answer within the deadline when the service hangs after a success, and the next command does not wait behind the hung one", async () => {
    const w = await world();
    const first = await w.ask("/price pepe");
    const price = /PEPE (\$\S+)/.exec(first)?.[1];
    expect(price).toBeDefined();
    w.sandbox.setFaults([{ kind: "hang", endpoints: ["batchPrices"] }]);
    w.clock.advance(4 * 60_000);

    const slow = w.ask("/price pepe");
    await w.sent("batchPrices", 2);
    // The hung call has reached the service and the deadline is not yet due: nothing answered.
    expect(w.answers).toEqual(["fresh"]);
    w.clock.advance(2_300);
    const shown = await slow;
    expect(shown).toContain("as of 12:00 UTC, 4 min ago — the market service is slow");
    expect(shown).toContain(`PEPE ${price}`);

    const next = await w.ask("/price pepe");
    expect(next).toContain("as of 12:00 UTC, 4 min ago — the market service is slow");
    expect(w.answers).toEqual(["fresh", "stale", "stale"]);
  });

  it("says in one sentence that the service is not answering when nothing is cached and the deadline comes", async () => {
    const w = await world({ faults: [{ kind: "hang", endpoints: ["tokenDetail"] }] });
    const id = w.sandbox.market.bySymbol("pepe")[0]?.id ?? "";
    const answer = w.ask(`/token ${id}`);
    await w.sent("tokenDetail", 1);
    w.clock.advance(2_300);
    expect((await answer).trim()).toBe("✖ The market service is not answering; try again in a minute.");
    expect(w.answers).toEqual(["busy"]);
  });

  it("lets a slow answer finish in the background, so the next person gets fresh data", async () => {
    const w = await world();
    await w.ask("/price pepe");
    w.sandbox.setFaults([{ kind: "latency", endpoints: ["batchPrices"], ms: 4_000, times: 1 }]);
    w.clock.advance(5 * 60_000);
    const slow = w.ask("/price pepe");
    await w.sent("batchPrices", 2);
    w.clock.advance(2_300);
    expect(await slow).toContain("5 min ago — the market service is slow");
    const before = w.stored.all.length;
    w.clock.advance(1_700);
    // The slow answer arrives and goes into the cache.
    await w.stored.until((all) => all.slice(before).some((key) => key.startsWith("batchPrices:")));
    const fresh = await w.ask("/price pepe");
    expect(fresh).not.toContain("ago —");
    expect(fresh).toContain("as of 12:05 UTC");
    expect(w.answers).toEqual(["fresh", "stale", "fresh"]);
  });

  it("tells a person at once that the bot is busy, with the plan's rate and the true wait, when its queue is 20 s long", async () => {
    const w = await world({ rps: 1 });
    const ids = w.sandbox.market.onChain("eth").slice(0, 21).map((t) => t.id);
    for (const id of ids.slice(1)) void w.client.tokenDetail(id).catch(() => undefined);
    const answer = await w.ask(`/token ${ids[0]}`);
    expect(answer.trim()).toBe("✖ The market service is busy — this bot may ask it 1 time a second. Try again in about 20 s.");
    expect(w.answers).toEqual(["busy"]);
  });

  it("prices on the free plan the tokens its searches found in time, and names the others, rather than answering busy", async () => {
    const w = await world({ rps: 1 });
    const asked = w.ask("/price pepe wif bonk");
    let answered = false;
    void asked.finally(() => (answered = true));
    // A call each 1.05 s: pepe's search now and the price next; a search of wif there would leave the price no turn.
    while (!answered && w.client.scheduler.depth.people === 0) await new Promise((r) => setImmediate(r));
    w.clock.advance(1_050);
    const answer = await asked;
    expect(answer).toMatch(/PEPE +eth +\$\S+/);
    expect(answer).toContain("Not looked up in time, the market service is busy: wif, bonk.");
    expect(w.answers).toEqual(["fresh"]);
  });

  it("believes a Retry-After of an hour, says so, and starts no retry past the deadline", async () => {
    const w = await world({ retries: 3, faults: [{ kind: "rate429", endpoints: ["tokenDetail"], ms: 3_600_000 }] });
    const id = w.sandbox.market.bySymbol("pepe")[0]?.id ?? "";
    const answer = await w.ask(`/token ${id}`);
    expect(answer.trim()).toBe("✖ The market service is busy and asked this bot to wait. Try again in about an hour.");
    expect(w.sandbox.stats().byEndpoint["tokenDetail"]).toBe(1);
  });

  it("answers from the cache with the age and the reason once the daily limit is reached, and says when it returns otherwise", async () => {
    const w = await world({ dailyUnits: 110 });
    await w.ask("/price pepe");
    w.clock.advance(3 * 60_000);
    const stale = await w.ask("/price pepe");
    expect(stale).toContain("as of 12:00 UTC, 3 min ago — the market service's daily quota is spent");
    const id = w.sandbox.market.bySymbol("wif")[0]?.id ?? "";
    const none = await w.ask(`/token ${id}`);
    expect(none.trim()).toBe("✖ The market service's daily quota is spent; data comes back at 00:00 UTC, in about 12 h.");
    expect(w.logs.join("\n")).toContain("until it returns at 00:00 UTC");
  });
});

describe("the note of older data", () => {
  it("cuts the age as the footer does, so a reply never tells two ages for one time", () => {
    const i18n = messages().translator("en");
    const at = Date.UTC(2026, 10, 22, 12, 0);
    const note = (agoMs: number) => staleNote([{ fetchedAt: at - agoMs, why: "slow" }], at, i18n);
    expect(note(119_000)).toBe("as of 11:58 UTC, 1 min ago — the market service is slow");
    expect(formatSince(at - 119_000, at, { i18n })).toBe("1m");
    expect(note(59_600)).toContain(", 59 s ago —");
    expect(note(2 * 3_600_000 - 1_000)).toContain(", 1 h ago —");
  });
});
