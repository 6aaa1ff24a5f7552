/**
 * The core asks again when an answer showed older data, one rule for every platform: on the
 * real core over the sandbox, the market held behind a gate so that the cache serves the
 * price it had, labelled. The asking again waits on the test (its `sleep`), not on the clock.
 */
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatContext } from "../../src/core/command.js";
import { createBotCore } from "../../src/core/create-core.js";
import { askAgainWhenOlder } from "../../src/core/fresher.js";
import type { Reply } from "../../src/core/reply.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import { deferred, type Deferred } from "../deferred.js";
import { PEPE, textOf } from "../calls/calls-world.js";

const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("charts are not part of this test")), close: async () => undefined };

describe("the core asks again for a fresher answer", () => {
  let sandbox: Sandbox;
  let client: MarketClient;
  let store: SqliteStore;
  let core: BotCore;
  let clock = Date.UTC(2026, 10, 22, 12, 0);
  /** Market answers wait for this while the sandbox's latency fault is set. */
  let market: Deferred<void>;
  /** The core's waits before asking again, as the test lets them end. */
  let waits: { ms: number; over: Deferred<void> }[] = [];
  let waited: Deferred<void>;

  const member = (userId: string, chatId: string): ChatContext => ({
    platform: "telegram", chatId, userId, isPrivate: false, isAdmin: async () => false, member: { name: `member ${userId}`, kind: "person" },
  });

  /** The answer that showed older data: the price was read, minutes pass, the market stops answering. */
  async function olderAnswer(chat: ChatContext, fresher: Deferred<Reply>): Promise<Reply> {
    const warm = await core.run(member("warm", "-2000"), "price", ["pepe"]);
    expect(warm?.footer?.stale).not.toBe(true);
    clock += 4 * 60_000;
    sandbox.setFaults([{ kind: "latency", ms: 1 }]);
    const reply = await core.command(chat, { name: "price", args: "pepe" }, { onFresher: async (r) => fresher.resolve(r) });
    if (reply === null) throw new Error("refused");
    expect(reply.footer?.stale).toBe(true);
    return reply;
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ now: () => clock, seed: 1, delay: () => market.promise });
    client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 20_000 });
    store = await openSqliteStore({ path: ":memory:" });
    core = createBotCore({
      market: createCachedMarket(client, { now: () => clock }),
      store,
      charts: noCharts,
      log: pino({ level: "silent" }),
      source: "demo data (sandbox)",
      now: () => clock,
      // Two commands a minute each: an ask again that counted would leave none for the next command.
      budget: { perUser: 2, perChat: 100 },
      fresher: {
        afterMs: [3_000, 10_000],
        sleep: (ms) => {
          const over = deferred();
          waits.push({ ms, over });
          waited.resolve();
          return over.promise;
        },
      },
    });
  });
  beforeEach(() => {
    sandbox.setFaults([]);
    market = deferred();
    waits = [];
    waited = deferred();
  });
  afterAll(async () => {
    market.resolve();
    await client.close();
    await sandbox.close();
    await store.close();
  });

  it("hands the fresh answer to the adapter, outside the person's budget", async () => {
    const ana = member("1", "-1001");
    const fresher = deferred<Reply>();
    await olderAnswer(ana, fresher);
    await waited.promise;
    expect(waits.map((w) => w.ms)).toEqual([3_000]);
    market.resolve();
    waits[0]?.over.resolve();
    const fresh = await fresher.promise;
    expect(fresh.footer?.stale).not.toBe(true);
    expect(textOf(fresh)).not.toContain("the market service is slow");
    // Her second command of the minute is answered: asking again spent none of her budget.
    const second = await core.command(ana, { name: "price", args: "pepe" });
    expect(second?.error).toBeUndefined();
  });

  it("keeps the call the first card made, its line and its button, and makes no second call", async () => {
    const ana = member("2", "-1002");
    const fresher = deferred<Reply>();
    const older = await olderAnswer(ana, fresher);
    const madeLine = textOf(older).split("\n").find((l) => l.includes("called this here"));
    expect(madeLine).toBeDefined();
    const button = older.actions.flat().find((a) => a.kind === "command" && a.command === "calls");
    expect(button).toBeDefined();

    await waited.promise;
    market.resolve();
    waits[0]?.over.resolve();
    const fresh = await fresher.promise;
    expect(fresh.footer?.stale).not.toBe(true);
    expect(textOf(fresh)).toContain(madeLine);
    expect(fresh.actions.flat()).toContainEqual(button);
    expect(await store.calls.boardCalls({ platform: "telegram", chatId: "-1002" }, 0)).toHaveLength(1);
  });

  it("makes no call when the first card's call was taken back before the fresher answer", async () => {
    const ana = member("3", "-1003");
    const fresher = deferred<Reply>();
    const older = await olderAnswer(ana, fresher);
    expect(textOf(older)).toContain("called this here");
    const taken = await core.run(ana, "calls", ["remove", PEPE]);
    expect(taken?.error).toBeUndefined();

    await waited.promise;
    market.resolve();
    waits[0]?.over.resolve();
    const fresh = await fresher.promise;
    expect(textOf(fresh)).not.toContain("📣");
    expect(fresh.actions.flat().some((a) => a.kind === "command" && a.command === "calls")).toBe(false);
    expect(await store.calls.boardCalls({ platform: "telegram", chatId: "-1003" }, 0)).toEqual([]);
  });
});

describe("asking again when the bot stops", () => {
  const older: Reply = { title: "PEPE", tone: "info", blocks: [], actions: [], footer: { source: "demo data (sandbox)", asOf: 0, stale: true } };
  const fresh: Reply = { ...older, footer: { source: "demo data (sandbox)", asOf: 1 } };

  it("drops a re-ask still waiting once the bot stops: no market call, no edit", async () => {
    const stopping = new AbortController();
    const wait = deferred();
    const waiting = deferred();
    let asked = 0;
    const edits: Reply[] = [];
    const again = async (): Promise<Reply> => {
      asked += 1;
      return fresh;
    };
    const sleep = (): Promise<void> => {
      waiting.resolve();
      return wait.promise;
    };
    const ended = askAgainWhenOlder(older, again, { onFresher: async (r) => void edits.push(r) }, { afterMs: [3_000], sleep, signal: stopping.signal }, pino({ level: "silent" }));
    await waiting.promise;
    stopping.abort();
    wait.resolve();
    await ended;
    expect(asked).toBe(0);
    expect(edits).toEqual([]);
  });

  it("still edits when the bot keeps running", async () => {
    const wait = deferred();
    const edited = deferred<Reply>();
    void askAgainWhenOlder(older, async () => fresh, { onFresher: async (r) => edited.resolve(r) }, { afterMs: [3_000], sleep: () => wait.promise, signal: new AbortController().signal }, pino({ level: "silent" }));
    wait.resolve();
    expect(await edited.promise).toBe(fresh);
  });
});
