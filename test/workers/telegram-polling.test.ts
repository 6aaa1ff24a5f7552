/**
 * The Telegram adapter long polling under its lease (several workers on one store), on the fake
 * Bot API with the real core: the poller goes on answering while the store cannot be reached,
 * and a 409 is taken first for another worker of the bot (give way, poll again when the store
 * says the lease is still this worker's), and only when it comes again before any poll was
 * answered for a process outside the bot.
 */
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TelegramFatalError } from "../../src/adapters/telegram/errors.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import { createLeaseKeeper } from "../../src/workers/lease-keeper.js";
import { type Harness, startHarness } from "../adapters/telegram/harness.js";
import { T0 } from "../adapters/real-core.js";
import { fakeUser, privateChat } from "../fakes/telegram-api.js";
import { lines } from "../lines.js";
import { reachableLeases } from "./reachable-leases.js";

let market: Sandbox;
beforeAll(async () => {
  market = await startSandbox({ time: T0, seed: 1 });
});
afterAll(async () => {
  await market.close();
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A poller under the `telegram-polling` lease on a store that stops answering while `down`. */
async function poller() {
  const store = await openSqliteStore({ path: ":memory:" });
  const clock = { t: T0 };
  const view = { down: false };
  const failed = lines();
  const said = lines();
  const fatal: TelegramFatalError[] = [];
  const ended = lines();
  const leases = reachableLeases(store.subscriptions, view, () => failed.push(""));
  const logger = pino({ level: "info" }, { write: (line: string) => said.push(String((JSON.parse(line) as { msg: string }).msg)) });
  h = await startHarness({
    store: store as SqliteStore,
    real: { shared: market },
    adapter: {
      onFatal: (e) => {
        fatal.push(e);
        ended.push(e.message);
      },
      lease: (name, onChange) => createLeaseKeeper({ leases, name, holder: "worker-a", ttlMs: 20_000, renewMs: 5, logger, now: () => clock.t, onChange }),
    },
  });
  const harness = h;
  const ask = async (text: string) => {
    const asked = harness.fake.sendText(privateChat(fakeUser()), text);
    return harness.fake.waitForSent((s) => s.replyTo === asked.message_id);
  };
  return { h: harness, store, clock, view, failed, said, fatal, ended, ask };
}

describe("long polling under a lease", () => {
  it("goes on answering while the store cannot be reached, past the lease's life, and says the lease is unrenewed", async () => {
    const w = await poller();
    await w.ask("/help");
    w.view.down = true;
    w.clock.t += 60_000;
    await w.failed.until((all) => all.length >= 3);
    expect((await w.ask("/help")).text).toBeTruthy();
    expect(w.h.adapter.isReady()).toBe(true);
    expect(w.h.adapter.lease()).toEqual({ name: "telegram-polling", held: true, unrenewed: true });
    expect(w.fatal).toEqual([]);
  });

  it("gives way at a 409 and polls again once the store says the lease is still its own", async () => {
    const w = await poller();
    await w.ask("/help");
    w.h.fake.conflict();
    await w.said.until((all) => all.some((m) => m.startsWith("lease given way")));
    await w.said.until((all) => all.filter((m) => m === "lease taken: this worker does it").length === 2);
    expect((await w.ask("/help")).text).toBeTruthy();
    expect(w.fatal).toEqual([]);
  });

  it("takes a 409 again before any poll was answered for a process outside the bot, and stops as one worker alone does", async () => {
    const w = await poller();
    await w.ask("/help");
    w.h.fake.conflict();
    await w.said.until((all) => all.some((m) => m.startsWith("lease given way")));
    const since = w.h.fake.calls.length;
    await w.h.fake.waitFor((c) => c.method === "getUpdates", { pending: true, since });
    w.h.fake.conflict();
    await w.ended.until((all) => all.length > 0);
    expect(w.fatal.map((e) => [e.message, e.served])).toEqual([["another process is polling with this bot token (409 Conflict): stop the other instance", true]]);
  });
});
