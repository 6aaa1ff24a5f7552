/**
 * The poster's lease and claims on the real store engines, with two posters sharing one
 * database and one hand-moved clock: where a poster stops, dies or stalls around a claim, and
 * what the next leader then sends. "Dies" is a send that never returns (the process is gone);
 * "stalls" is one that returns after the lease has passed to another worker.
 */
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import type { PlatformAdapter, PreparedSend } from "../../src/adapters/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import { createPostRenderer } from "../../src/core/posts/renderer.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { createPoster, type Poster } from "../../src/digest/poster.js";
import type { NewSubscription, SettingsStore, Store } from "../../src/store/types.js";
import { ENGINES, storeEngines } from "../store/engines.js";
import { deferred } from "../deferred.js";

const engines = storeEngines();

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 22, 10, 0);
const LEASE_MS = 30_000;
const CHATS = ["c1", "c2", "c3"];

const sub = (chatId: string): NewSubscription => ({
  platform: "telegram",
  chatId,
  chain: "eth",
  cron: "0 * * * *",
  timezone: "UTC",
  label: "every 1h",
  intervalMinutes: 60,
  topN: 2,
});

const core: Pick<BotCore, "post" | "render"> = {
  ...createPostRenderer({ settings: { getSettings: async () => ({ timezone: "UTC" }) }, source: "test", log: pino({ level: "silent" }) }),
  post: async (_chat, _command, args) => ({ title: `Trending on ${args[0] ?? ""}`, tone: "info", blocks: [], actions: [] }),
};

/**
 * A Telegram adapter in two steps, as the real one: `prepared` lists the chats whose checks
 * ran, `sent` those whose request left. `holdPrepare`/`holdSend` keep one chat's step
 * waiting until released (never, for a process that died there); `reached` says it got there.
 */
function steppedAdapter() {
  const prepared: string[] = [];
  const sent: string[] = [];
  const holds = new Map<string, { step: "prepare" | "send"; reached: ReturnType<typeof deferred<void>>; release: Promise<void> }>();
  const hold = (step: "prepare" | "send", chatId: string, release: Promise<void>) => {
    const reached = deferred();
    holds.set(chatId, { step, reached, release });
    return reached.promise;
  };
  const wait = async (step: "prepare" | "send", chatId: string) => {
    const h = holds.get(chatId);
    if (h?.step !== step) return;
    h.reached.resolve();
    await h.release;
  };
  const adapter: PlatformAdapter = {
    platform: "telegram",
    start: async () => undefined,
    stop: async () => undefined,
    isReady: () => true,
    send: async () => {
      throw new Error("the poster sends in two steps");
    },
    prepareSend: async (chatId): Promise<PreparedSend> => {
      prepared.push(chatId);
      await wait("prepare", chatId);
      return {
        send: async () => {
          sent.push(chatId);
          await wait("send", chatId);
          return { kind: "delivered" };
        },
      };
    },
  };
  return {
    adapter,
    prepared,
    sent,
    holdPrepare: (chatId: string, release: Promise<void>) => hold("prepare", chatId, release),
    holdSend: (chatId: string, release: Promise<void>) => hold("send", chatId, release),
  };
}

describe.each(ENGINES)("digest poster leadership on %s", (engine) => {
  let t = T0;
  const clock = () => t;

  const world = async () => {
    t = T0 - 2 * MINUTE;
    const db = await engines.database(engine);
    const first = await db.open();
    for (const c of CHATS) await first.subscriptions.upsertSubscription(sub(c), T0 - 60 * MINUTE);
    const worker = async (holder: string): Promise<{ poster: Poster; store: Store } & ReturnType<typeof steppedAdapter>> => {
      const store = await db.open();
      const stepped = steppedAdapter();
      const poster = createPoster({
        subscriptions: store.subscriptions,
        chats: {} as SettingsStore,
        core,
        adapters: { telegram: stepped.adapter },
        queues: { telegram: createPacedQueue({ maxInFlight: 1, now: clock }) },
        logger: pino({ level: "silent" }),
        now: clock,
        holder,
        leaseTtlMs: LEASE_MS,
      });
      return { poster, store, ...stepped };
    };
    return { subs: first.subscriptions, worker };
  };

  it("a poster stopped between taking a delivery and claiming it leaves the row queued, and the next one sends it once", async () => {
    const w = await world();
    const a = await w.worker("a");
    const b = await w.worker("b");
    t = T0 + 5_000;
    const release = deferred();
    const reached = a.holdPrepare("c1", release.promise);
    expect((await a.poster.tick()).leader).toBe(true);
    await reached;
    const stopped = a.poster.stop();
    release.resolve();
    await stopped;
    expect(a.sent).toEqual([]);
    expect(await w.subs.deliveryCounts(T0)).toEqual({ queued: 3 });

    t = T0 + 20_000;
    const tick = await b.poster.tick();
    expect(tick.leader).toBe(true);
    await tick.done;
    expect(b.sent).toEqual(CHATS);
    expect(await w.subs.deliveryCounts(T0)).toEqual({ delivered: 3 });
  });

  it("a poster killed between taking a delivery and claiming it leaves the row queued; the next leader sends it once", async () => {
    const w = await world();
    const a = await w.worker("a");
    const b = await w.worker("b");
    t = T0 + 5_000;
    // Killed in its checks before the claim: the step never returns.
    const reached = a.holdPrepare("c1", new Promise<void>(() => undefined));
    expect((await a.poster.tick()).leader).toBe(true);
    await reached;
    expect(await w.subs.deliveryCounts(T0)).toEqual({ queued: 3 });

    // Its lease runs out; the next worker leads and finds every row still queued.
    t = T0 + 5_000 + LEASE_MS;
    const tick = await b.poster.tick();
    expect(tick.leader).toBe(true);
    await tick.done;
    expect(a.sent).toEqual([]);
    expect(b.sent).toEqual(CHATS);
    expect(await w.subs.deliveryCounts(T0)).toEqual({ delivered: 3 });
  });

  it("a leader that lost its lease and takes it back later interrupts the rows of the leader that died in between, sends them once more, and sends the rest", async () => {
    const w = await world();
    const a = await w.worker("a");
    const b = await w.worker("b");
    // a leads first, while nothing is due.
    expect((await a.poster.tick()).leader).toBe(true);
    // a's lease runs out (a stalls); b leads the slot and dies with c1 sent but not recorded.
    t = T0 + 5_000;
    const died = b.holdSend("c1", new Promise<void>(() => undefined));
    expect((await b.poster.tick()).leader).toBe(true);
    await died;
    expect(await w.subs.deliveryCounts(T0)).toEqual({ sending: 1, queued: 2 });

    // b's lease runs out; a takes the lease back.
    t = T0 + 5_000 + LEASE_MS;
    const tick = await a.poster.tick();
    expect(tick.leader).toBe(true);
    await tick.done;
    expect(b.sent).toEqual(["c1"]);
    expect(a.sent).toEqual(["c1", "c2", "c3"]);
    expect(await w.subs.deliveryCounts(T0)).toEqual({ resent: 1, delivered: 2 });
  });

  it("a stalled leader whose lease another took stops claiming; the next leader sends its row in flight once more, and the late outcome does not overwrite the resend", async () => {
    const w = await world();
    const a = await w.worker("a");
    const b = await w.worker("b");
    t = T0 + 5_000;
    const release = deferred();
    const inFlight = a.holdSend("c1", release.promise);
    expect((await a.poster.tick()).leader).toBe(true);
    await inFlight;

    // a's event loop stands still past its lease: b leads, takes a's row as cut off and sends it
    // once more with the others. This is the double the protocol admits: a send of a stalled
    // sender that was already on its way.
    t = T0 + 5_000 + LEASE_MS;
    const tick = await b.poster.tick();
    expect(tick.leader).toBe(true);
    await tick.done;
    expect(b.sent).toEqual(["c1", "c2", "c3"]);
    expect(await w.subs.deliveryCounts(T0)).toEqual({ resent: 1, delivered: 2 });

    // a wakes: its send is answered but the row is b's now; what it had queued it no longer claims.
    release.resolve();
    await vi.waitFor(() => expect(a.poster.leading()).toBe(false), { timeout: 10_000 });
    await a.poster.stop();
    expect(a.sent).toEqual(["c1"]);
    // c2 was already taken by the queue's turn when a woke: its claim found the lease gone, and c3 never took a turn.
    expect(a.prepared).toEqual(["c1", "c2"]);
    expect(await w.subs.deliveryCounts(T0)).toEqual({ resent: 1, delivered: 2 });
    expect((await b.poster.tick()).leader).toBe(true);
    expect(b.sent).toEqual(CHATS);
  });
});
