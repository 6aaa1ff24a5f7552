import { describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { MarketApi } from "../../src/market/api.js";
import { asking, currentAsk, newAsk, type Ask } from "../../src/market/ask.js";
import { MarketError } from "../../src/market/errors.js";
import { Scheduler } from "../../src/market/scheduler.js";
import type { TokenDetail } from "../../src/market/schemas.js";
import { createMemoryStore } from "../../src/cache/memory-store.js";
import type { CacheStore } from "../../src/cache/store.js";
import { lines, type Lines } from "../lines.js";
import { steppedClock } from "../market/helpers.js";
import { createFakeMarket, detailOf } from "./fake-market.js";

const ID = `0x${"a".repeat(40)}-eth`;

/** The cache's own store, telling `seen` of each entry it keeps. */
function observedStore(seen: Lines, now: () => number): CacheStore {
  const memory = createMemoryStore({ maxBytes: 32 * 1024 * 1024, now });
  return {
    get: (key) => memory.get(key),
    set: async (key, entry, keepMs) => {
      await memory.set(key, entry, keepMs);
      seen.push(`stored ${key}`);
    },
  };
}

/** Whether `seen` has a step matching `step` after the first `from`. */
const since = (from: number, step: (s: string) => boolean) => (all: readonly string[]) => all.slice(from).some(step);

/** A market whose detail calls wait until the test answers them; it notes each call's lane. */
function gatedMarket(seen: Lines) {
  const calls: { lane: string | undefined; answer: (d: TokenDetail) => void; fail: (e: unknown) => void }[] = [];
  const tokenDetail = () =>
    new Promise<TokenDetail>((answer, fail) => {
      calls.push({ lane: currentAsk()?.lane, answer, fail });
      seen.push("call");
    });
  const others = createFakeMarket().api;
  const api = new Proxy(others, { get: (target, prop: keyof MarketApi) => (prop === "tokenDetail" ? tokenDetail : target[prop]) });
  return { api, calls };
}

function setup() {
  const clock = steppedClock(Date.UTC(2026, 10, 24, 12, 0));
  // The steps a lookup takes that a test can see, in order: `call` (the market was asked),
  // `sleep` (it waits on the clock), `stored <key>` (an entry went into the cache), `answered`
  // (a person has the answer). A test waits for the step it needs next, not for turns of the loop.
  const seen = lines();
  const gated = gatedMarket(seen);
  const sleep = (ms: number): Promise<void> => {
    const slept = clock.sleep(ms);
    seen.push("sleep");
    return slept;
  };
  const market = createCachedMarket(gated.api, { now: clock.now, sleep, store: observedStore(seen, clock.now), ttl: { tokenDetail: 60_000 } });
  /** A person's lookup, once it has its answer or waits on the clock for its deadline or patience. */
  const person = async (deadlineIn = 2_300): Promise<{ ask: Ask; result: Promise<unknown> }> => {
    const from = seen.all.length;
    const ask = newAsk("people", clock.now() + deadlineIn, clock.now);
    const result = asking(ask, () => market.tokenDetail(ID)).catch((e: unknown) => e);
    void result.then(() => seen.push("answered"));
    await seen.until(since(from, (step) => step === "answered" || step === "sleep"));
    return { ask, result };
  };
  /** Resolves once an entry has been stored since step `from`. */
  const stored = (from: number) => seen.until(since(from, (step) => step.startsWith("stored ")));
  return { clock, market, calls: gated.calls, person, seen, stored };
}

describe("a lookup with a person waiting", () => {
  it("serves the newest cached value at the deadline, labelled slow, and the late answer refreshes the cache for the next person", async () => {
    const { clock, calls, person, seen, stored } = setup();
    const first = await person();
    calls[0]?.answer(detailOf(ID, "1.0"));
    expect(await first.result).toMatchObject({ stale: false });
    const cachedAt = clock.now();
    clock.advance(10 * 60_000);

    const slow = await person();
    clock.advance(2_300);
    expect(await slow.result).toMatchObject({ stale: true, fetchedAt: cachedAt, data: { token: { current_price_usd: "1.0" } } });
    expect(slow.ask.stale).toEqual([{ fetchedAt: cachedAt, why: "slow" }]);

    const late = seen.all.length;
    calls[1]?.answer(detailOf(ID, "2.0"));
    await stored(late);
    const next = await person();
    expect(await next.result).toMatchObject({ stale: false, data: { token: { current_price_usd: "2.0" } } });
    expect(calls).toHaveLength(2);
  });

  it("waits no more than 0.8 s for fresh data when an older value is at hand", async () => {
    const { clock, calls, person } = setup();
    const first = await person();
    calls[0]?.answer(detailOf(ID, "1.0"));
    await first.result;
    clock.advance(10 * 60_000);
    const slow = await person();
    clock.advance(800);
    expect(await slow.result).toMatchObject({ stale: true, data: { token: { current_price_usd: "1.0" } } });
  });

  it("with nothing cached, gives up at the deadline and the answer that comes later serves the next person", async () => {
    const { clock, calls, person, seen, stored } = setup();
    const first = await person();
    clock.advance(2_300);
    expect(await first.result).toMatchObject({ kind: "timeout" });
    const late = seen.all.length;
    calls[0]?.answer(detailOf(ID, "3.0"));
    await stored(late);
    const next = await person();
    expect(await next.result).toMatchObject({ stale: false, data: { token: { current_price_usd: "3.0" } } });
  });

  it("answers a person at once from the old value while a refresh that already kept someone waiting still runs", async () => {
    const { clock, calls, person } = setup();
    const first = await person();
    calls[0]?.answer(detailOf(ID, "1.0"));
    await first.result;
    clock.advance(10 * 60_000);
    const kept = await person();
    clock.advance(2_300);
    await kept.result;
    const next = await person();
    expect(await next.result).toMatchObject({ stale: true, data: { token: { current_price_usd: "1.0" } } });
    expect(next.ask.stale).toEqual([expect.objectContaining({ why: "slow" })]);
    expect(calls).toHaveLength(2);
  });

  it("serves the old value labelled busy when the scheduler has no room in time, and fetches it in the refresh lane", async () => {
    const { clock, calls, person, seen } = setup();
    const first = await person();
    calls[0]?.answer(detailOf(ID, "1.0"));
    await first.result;
    clock.advance(10 * 60_000);
    const busy = await person();
    calls[1]?.fail(new MarketError({ kind: "busy", endpoint: "tokenDetail", message: "no room", retryAfterMs: 20_000, ratePerSecond: 1 }));
    expect(await busy.result).toMatchObject({ stale: true });
    expect(busy.ask.stale).toEqual([expect.objectContaining({ why: "busy" })]);
    await seen.until(() => calls.length === 3);
    expect(calls.map((c) => c.lane)).toEqual(["people", "people", "refresh"]);
  });

  it("serves nothing older than the kind's maximum staleness", async () => {
    const { clock, calls, person } = setup();
    const first = await person();
    calls[0]?.answer(detailOf(ID, "1.0"));
    await first.result;
    clock.advance(7 * 3_600_000);
    const late = await person();
    clock.advance(2_300);
    expect(await late.result).toMatchObject({ kind: "timeout" });
  });

  it("serves an entry within its grace at once and refreshes it in the refresh lane", async () => {
    const { clock, calls, person } = setup();
    const first = await person();
    calls[0]?.answer(detailOf(ID, "1.0"));
    await first.result;
    clock.advance(90_000);
    const quick = await person();
    expect(await quick.result).toMatchObject({ stale: false, data: { token: { current_price_usd: "1.0" } } });
    expect(calls.map((c) => c.lane)).toEqual(["people", "refresh"]);
  });
});

describe("a person's patience", () => {
  it("does not keep a person waiting behind a refresh of the same key: its own call goes in the person's lane", async () => {
    const { clock, market, calls, person, seen } = setup();
    void asking(newAsk("refresh", undefined, clock.now), () => market.tokenDetail(ID)).catch(() => undefined);
    await seen.until(() => calls.length === 1);
    const waiting = await person();
    expect(calls.map((c) => c.lane)).toEqual(["refresh", "people"]);
    calls[1]?.answer(detailOf(ID, "4.0"));
    expect(await waiting.result).toMatchObject({ stale: false, data: { token: { current_price_usd: "4.0" } } });
  });

  it("stops waiting for fresh data at the command's patience, counted once for all its lookups", async () => {
    const { clock, market, calls, seen } = setup();
    const other = `0x${"b".repeat(40)}-eth`;
    void market.tokenDetail(ID);
    void market.tokenDetail(other);
    await seen.until(() => calls.length === 2);
    const answered = seen.all.length;
    calls[0]?.answer(detailOf(ID, "1.0"));
    calls[1]?.answer(detailOf(other, "1.0"));
    await seen.until((all) => all.slice(answered).filter((step) => step.startsWith("stored ")).length >= 2);
    clock.advance(10 * 60_000);
    const ask = { ...newAsk("people", clock.now() + 2_300, clock.now), patientUntil: clock.now() + 700 };
    const asked = seen.all.length;
    const both = asking(ask, async () => [await market.tokenDetail(ID), await market.tokenDetail(other)]);
    // The first lookup waits out the patience on the clock.
    await seen.until(since(asked, (step) => step === "sleep"));
    clock.advance(700);
    // The second lookup has older data at hand too: it does not wait another 0.7 s.
    expect(await both).toMatchObject([{ stale: true }, { stale: true }]);
    expect(ask.stale.map((s) => s.why)).toEqual(["slow", "slow"]);
  });
});

describe("a lookup over the key's scheduler", () => {
  /** The cache over a detail endpoint that goes through a real scheduler at 1 request a second, as the client's calls do. */
  function scheduled() {
    const clock = steppedClock(Date.UTC(2026, 10, 24, 12, 0));
    const scheduler = new Scheduler({ rps: 1, now: clock.now, sleep: clock.sleep });
    const asked = lines();
    const sent = lines();
    const tokenDetail = (id: string) => {
      const ask = currentAsk();
      const lane = ask?.lane ?? "people";
      const answer = scheduler.run({
        lane, endpoint: "tokenDetail", units: 5, key: `detail ${id}`, deadline: ask?.deadline,
        send: async () => {
          sent.push(`${lane} ${id}`);
          return detailOf(id, String(sent.all.length));
        },
      });
      asked.push(lane);
      return answer;
    };
    const others = createFakeMarket().api;
    const api = new Proxy(others, { get: (target, prop: keyof MarketApi) => (prop === "tokenDetail" ? tokenDetail : target[prop]) });
    const market = createCachedMarket(api, { now: clock.now, sleep: clock.sleep, ttl: { tokenDetail: 60_000 } });
    return { clock, scheduler, market, asked, sent };
  }

  it("serves a past-grace value at once, labelled busy, when the queue cannot answer within the command's patience, and refreshes it in the refresh lane", async () => {
    const { clock, scheduler, market, asked, sent } = scheduled();
    await market.tokenDetail(ID);
    clock.advance(10 * 60_000);
    // A call just left: the next could leave in 1.05 s, past a patience of 0.7 s, though well before the deadline.
    void scheduler.run({ lane: "people", endpoint: "search", units: 5, send: async () => "ahead" });
    const ask = { ...newAsk("people", clock.now() + 2_300, clock.now), patientUntil: clock.now() + 700 };
    const answer = await asking(ask, () => market.tokenDetail(ID));
    expect(answer).toMatchObject({ stale: true, data: { token: { current_price_usd: "1" } } });
    expect(ask.stale).toEqual([expect.objectContaining({ why: "busy" })]);
    await asked.until((all) => all.includes("refresh"));
    expect(scheduler.depth).toMatchObject({ people: 0, refresh: 1 });
    await clock.runFor(3_000, sent.until((all) => all.length === 2));
    expect(sent.all).toEqual(["people " + ID, "refresh " + ID]);
  });
});

describe("list records and cached cards", () => {
  it("brings a cached card's price up to date from a search's full record, without a detail call", async () => {
    const fake = createFakeMarket();
    const [token, chain] = ID.split("-") as [string, string];
    const api = new Proxy(fake.api, {
      get: (target, prop: keyof MarketApi) =>
        prop === "search" ? async () => [{ token, chain, symbol: "FAKE", current_price_usd: "1.9" }] : target[prop],
    });
    let now = Date.UTC(2026, 10, 24, 12, 0);
    const seen = lines();
    const market = createCachedMarket(api, { now: () => now, store: observedStore(seen, () => now) });
    expect((await market.tokenDetail(ID)).data.token.current_price_usd).toBe("1.5");
    const cards = new Set(seen.all);
    now += 30_000;
    const searched = seen.all.length;
    await market.search({ keyword: "fake" });
    // The search's record goes into the card after the search has answered.
    await seen.until(since(searched, (step) => cards.has(step)));
    const refreshedAt = now;
    now += 50_000;
    const card = await market.tokenDetail(ID);
    expect(fake.count("tokenDetail")).toBe(1);
    expect(card).toMatchObject({ stale: false, fetchedAt: refreshedAt, data: { token: { current_price_usd: "1.9", symbol: "FAKE" } } });
  });
});
