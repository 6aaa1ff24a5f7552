/**
 * Alert deliveries' claims on the real store engines, with two workers sharing one database and
 * one hand-moved clock: where a worker stops, dies or stalls around a claim, and what the other
 * then sends. "Dies" is a step that never returns (the process is gone); "stalls" is one that
 * returns after its heartbeat has run out.
 */
import { createPostRenderer } from "../../src/core/posts/renderer.js";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { PreparedSend } from "../../src/adapters/types.js";
import { createAlertDelivery, type AlertDelivery, type AlertSink } from "../../src/alerts/delivery.js";
import type { FiredPayload } from "../../src/core/posts/alert.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import type { Store } from "../../src/store/types.js";
import { ENGINES, storeEngines } from "../store/engines.js";
import { deferred } from "../deferred.js";

const engines = storeEngines();

const T0 = Date.UTC(2026, 10, 24, 9, 0);
const HEARTBEAT_MS = 40_000;
/** Sorted: a worker queues its firings in the order their chats' languages are read. */
const CHATS = ["-101", "-102", "-103"];

/**
 * A sink in two steps, as the real adapters: `prepared` lists the chats whose checks ran, `sent`
 * those whose request left. `holdPrepare`/`holdSend` keep the next such step, whichever chat it
 * is for, waiting until released (never, for a process that died there); the promise they
 * return says which chat got there.
 */
function steppedSink() {
  const prepared: string[] = [];
  const sent: string[] = [];
  const holds = new Map<"prepare" | "send", { reached: (chatId: string) => void; release: Promise<void> }>();
  const hold = (step: "prepare" | "send", release: Promise<void>) =>
    new Promise<string>((reached) => holds.set(step, { reached, release }));
  const wait = async (step: "prepare" | "send", chatId: string) => {
    const h = holds.get(step);
    if (h === undefined) return;
    holds.delete(step);
    h.reached(chatId);
    await h.release;
  };
  const sink: AlertSink = {
    send: async () => {
      throw new Error("alerts send in two steps");
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
    sink,
    prepared,
    sent,
    holdPrepare: (release: Promise<void>) => hold("prepare", release),
    holdSend: (release: Promise<void>) => hold("send", release),
  };
}

const others = (chatId: string) => CHATS.filter((c) => c !== chatId);

/** Records a fired alert for each chat, queued for delivery as a check leaves it. */
async function queueFirings(store: Store, at: number): Promise<void> {
  for (const chatId of CHATS) {
    const r = await store.alerts.addAlert(
      { platform: "telegram", chatId, tokenId: "wif-solana", symbol: "WIF", chain: "solana", rule: "above", level: "2", anchorPrice: "1", anchorAt: at },
      20,
      at,
    );
    if (!("alert" in r)) throw new Error("full");
    const payload: FiredPayload = { number: r.alert.number, tokenId: "wif-solana", symbol: "WIF", chain: "solana", rule: "above", level: "2", from: "1", price: "2.5", at };
    await store.alerts.commitCheck([], [{ alertId: r.alert.id, anchorAt: r.alert.anchorAt, set: { armed: false }, notice: { kind: "fired", payload: JSON.stringify(payload) } }], at);
  }
}

describe.each(ENGINES)("alert delivery claims on %s", (engine) => {
  let t = T0;
  const clock = () => t;

  const world = async () => {
    t = T0;
    const db = await engines.database(engine);
    const first = await db.open();
    await queueFirings(first, T0);
    const worker = async (sender: string, pushed?: { urgent?: boolean }[]): Promise<{ delivery: AlertDelivery } & ReturnType<typeof steppedSink>> => {
      const store = await db.open();
      const stepped = steppedSink();
      const paced = createPacedQueue({ maxInFlight: 1, now: clock });
      const queue = pushed === undefined ? paced : { ...paced, push: (job: Parameters<typeof paced.push>[0]) => (pushed.push({ ...(job.urgent === undefined ? {} : { urgent: job.urgent }) }), paced.push(job)) };
      const delivery = createAlertDelivery({
        alerts: store.alerts,
        chats: store,
        leases: store.subscriptions,
        sender,
        heartbeatTtlMs: HEARTBEAT_MS,
        adapters: { telegram: stepped.sink },
        queues: { telegram: queue },
        core: createPostRenderer({ settings: store, source: "test", log: pino({ level: "silent" }) }),
        logger: pino({ level: "silent" }),
        now: clock,
      });
      return { delivery, ...stepped };
    };
    return { alerts: first.alerts, worker };
  };

  it("hands every firing to the paced queue as urgent, ahead of a chat's buy posts and digests", async () => {
    const w = await world();
    const pushed: { urgent?: boolean }[] = [];
    const a = await w.worker("host-a:11:a", pushed);
    expect(await a.delivery.heartbeat()).toBe(true);
    await (await a.delivery.flush()).done;
    expect(pushed).toEqual(CHATS.map(() => ({ urgent: true })));
  });

  it("a worker stopped between preparing a send and claiming it leaves the firing queued, and the next worker sends it once", async () => {
    const w = await world();
    const a = await w.worker("host-a:11:a");
    const b = await w.worker("host-b:12:b");
    const release = deferred();
    const reached = a.holdPrepare(release.promise);
    expect(await a.delivery.heartbeat()).toBe(true);
    const flushed = await a.delivery.flush();
    await reached;
    a.delivery.stop();
    release.resolve();
    await flushed.done;
    expect(a.sent).toEqual([]);
    expect(await w.alerts.firingCounts()).toEqual({ queued: 3 });

    t = T0 + 5_000;
    await b.delivery.heartbeat();
    await (await b.delivery.flush()).done;
    expect([...b.sent].sort()).toEqual(CHATS);
    expect(await w.alerts.firingCounts()).toEqual({ delivered: 3 });
  });

  it("a worker killed between preparing a send and claiming it leaves the firing queued, and another sends it once", async () => {
    const w = await world();
    const a = await w.worker("host-a:11:a");
    const b = await w.worker("host-b:12:b");
    // Killed in its checks before the claim: the step never returns.
    const reached = a.holdPrepare(new Promise<void>(() => undefined));
    await a.delivery.heartbeat();
    await a.delivery.flush();
    await reached;
    expect(await w.alerts.firingCounts()).toEqual({ queued: 3 });

    t = T0 + 5_000;
    await b.delivery.heartbeat();
    expect(await b.delivery.recover()).toBe(0);
    await (await b.delivery.flush()).done;
    expect(a.sent).toEqual([]);
    expect([...b.sent].sort()).toEqual(CHATS);
    expect(await w.alerts.firingCounts()).toEqual({ delivered: 3 });
  });

  it("a worker that takes its heartbeat back interrupts the firing of a worker that died in between, sends it once more, and sends the rest", async () => {
    const w = await world();
    const a = await w.worker("host-a:11:a");
    const b = await w.worker("host-b:12:b");
    // a beats first, then stalls past its heartbeat; b delivers and dies with -101 sent but not recorded.
    await a.delivery.heartbeat();
    t = T0 + HEARTBEAT_MS + 1_000;
    const died = b.holdSend(new Promise<void>(() => undefined));
    await b.delivery.heartbeat();
    await b.delivery.flush();
    const lost = await died;
    expect(await w.alerts.firingCounts()).toEqual({ sending: 1, queued: 2 });

    // b's heartbeat runs out; a takes its own back and recovers.
    t = T0 + 2 * HEARTBEAT_MS + 2_000;
    expect(await a.delivery.heartbeat()).toBe(true);
    expect(await a.delivery.recover()).toBe(1);
    await (await a.delivery.flush()).done;
    expect(b.sent).toEqual([lost]);
    expect([...a.sent].sort()).toEqual([lost, ...others(lost)].sort());
    expect(await w.alerts.firingCounts()).toEqual({ resent: 1, delivered: 2 });
  });

  it("a worker stalled past its heartbeat stops claiming; its send in flight is recorded late over 'interrupted', not resent, and the other worker sends the rest once", async () => {
    const w = await world();
    const a = await w.worker("host-a:11:a");
    const b = await w.worker("host-b:12:b");
    const release = deferred();
    const inFlight = a.holdSend(release.promise);
    await a.delivery.heartbeat();
    const flushed = await a.delivery.flush();
    const late = await inFlight;

    // a's event loop stands still past its heartbeat: b finds it gone and gives its send up.
    t = T0 + HEARTBEAT_MS + 1_000;
    await b.delivery.heartbeat();
    expect(await b.delivery.recover()).toBe(1);
    expect(await w.alerts.firingCounts()).toEqual({ interrupted: 1, queued: 2 });

    // a wakes: its send is answered and recorded; the next claim finds the heartbeat gone, and a claims nothing more.
    release.resolve();
    await flushed.done;
    expect(a.delivery.claiming()).toBe(false);
    expect(a.sent).toEqual([late]);
    // The next firing had taken the queue's turn when a woke: its claim found the heartbeat gone, and the last never took a turn.
    expect(a.prepared).toHaveLength(2);
    expect(a.prepared[0]).toBe(late);
    expect(await w.alerts.firingCounts()).toEqual({ delivered: 1, queued: 2 });

    await (await b.delivery.flush()).done;
    expect([...b.sent].sort()).toEqual(others(late));
    expect(await w.alerts.firingCounts()).toEqual({ delivered: 3 });
  });
});
