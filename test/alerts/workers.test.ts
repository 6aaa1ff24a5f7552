/**
 * Alerts on several workers sharing one store, on the world's hand-moved clock: each worker is an
 * alert service with its own name (on hosts other than this one, so only leases tell whether it
 * lives). One check per period across them, a dead checker's lease taken over within a minute,
 * and a worker starting beside a live one leaving that one's sends alone.
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import type { SendOutcome } from "../../src/adapters/types.js";
import type { CheckReport } from "../../src/alerts/checker.js";
import type { AlertSink } from "../../src/alerts/delivery.js";
import { alertLeaseTimes } from "../../src/alerts/lease-times.js";
import type { FiredPayload } from "../../src/core/posts/alert.js";
import { deferred, type Deferred } from "../deferred.js";
import { startAlertWorld, T0, type AlertWorld } from "./alert-world.js";

const PERIOD = 30_000;
let world: AlertWorld | undefined;
const unblock: Deferred<SendOutcome>[] = [];

afterEach(async () => {
  for (const held of unblock.splice(0)) held.resolve({ kind: "delivered" });
  await world?.close();
  world = undefined;
});

/** A sink whose sends wait until the test lets them go; `started` resolves at each send's start. */
function heldSink() {
  const sent: string[] = [];
  let start: Deferred<void> | undefined;
  const sink: AlertSink = {
    send(chatId) {
      sent.push(chatId);
      start?.resolve();
      const held = deferred<SendOutcome>();
      unblock.push(held);
      return held.promise;
    },
  };
  return {
    sink,
    sent,
    started: () => (start = deferred()).promise,
    release: () => {
      for (const held of unblock.splice(0)) held.resolve({ kind: "delivered" });
    },
  };
}

const quietSink = (sent: string[]): AlertSink => ({
  send: async (chatId) => {
    sent.push(chatId);
    return { kind: "delivered" };
  },
});

/** Records a fired alert for `chatId`, queued for delivery as a check would leave it. */
async function queueFiring(w: AlertWorld, chatId: string): Promise<void> {
  const r = await w.store.alerts.addAlert(
    { platform: "telegram", chatId, tokenId: "wif-solana", symbol: "WIF", chain: "solana", rule: "above", level: "2", anchorPrice: "1", anchorAt: w.clock.now() },
    20,
    w.clock.now(),
  );
  if (!("alert" in r)) throw new Error("full");
  const payload: FiredPayload = { number: r.alert.number, tokenId: "wif-solana", symbol: "WIF", chain: "solana", rule: "above", level: "2", from: "1", price: "2.5", at: w.clock.now() };
  await w.store.alerts.commitCheck([], [{ alertId: r.alert.id, anchorAt: r.alert.anchorAt, set: { armed: false }, notice: { kind: "fired", payload: JSON.stringify(payload) } }], w.clock.now());
}

describe("alerts on several workers", () => {
  it("renews the checker's lease every third of a period and lets it lapse within a minute at the default period", () => {
    const { ttlMs, renewMs } = alertLeaseTimes(PERIOD);
    expect(renewMs).toBe(10_000);
    expect(ttlMs + renewMs).toBeLessThanOrEqual(60_000);
    expect(ttlMs).toBeGreaterThanOrEqual(2 * renewMs);
  });

  it("checks once a period across two workers, and the survivor checks within 60 s of the checker being killed", async () => {
    const w = (world = await startAlertWorld());
    const checks: { worker: string; at: number }[] = [];
    const onCheck = (worker: string) => (r: CheckReport) => {
      if (r.leader) checks.push({ worker, at: w.clock.now() });
    };
    const a = w.service("telegram", quietSink([]), { holder: "host-a:11:worker-a:1", onCheck: onCheck("a") });
    const b = w.service("telegram", quietSink([]), { holder: "host-b:12:worker-b:1", onCheck: onCheck("b") });
    const { renewMs } = alertLeaseTimes(PERIOD);
    let t = T0;
    for (; t <= T0 + 2 * 60_000; t += renewMs) {
      w.clock.set(t);
      await a.beat();
      await b.beat();
    }
    expect(checks.every((c) => c.worker === "a")).toBe(true);
    expect(checks.map((c) => c.at - T0)).toEqual([0, 30_000, 60_000, 90_000, 120_000]);

    // Worker a is SIGKILLed right after its last renewal: it never beats again, nor gives the lease up.
    const killedAt = t - renewMs;
    for (; t <= killedAt + 2 * 60_000; t += renewMs) {
      w.clock.set(t);
      await b.beat();
    }
    const taken = checks.find((c) => c.worker === "b");
    expect(taken).toBeDefined();
    expect(taken!.at - killedAt).toBeLessThanOrEqual(60_000);
    const afterTakeover = checks.filter((c) => c.worker === "b").map((c) => c.at - taken!.at);
    expect(afterTakeover).toEqual([0, 30_000, 60_000]);
  });

  it("takes the lease over at once from a checker on this host whose process no longer runs", async () => {
    const w = (world = await startAlertWorld());
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    const checks: string[] = [];
    const before = w.service("telegram", quietSink([]), { holder: `${hostname()}:${deadPid}:worker-a:1`, onCheck: (r) => r.leader && checks.push("before") });
    await before.beat();
    w.clock.set(T0 + 1_000);
    const after = w.service("telegram", quietSink([]), { onCheck: (r) => r.leader && checks.push("after") });
    await after.beat();
    expect(checks).toEqual(["before", "after"]);
  });

  it("leaves a live worker's send in flight alone when another worker starts, so its outcome is recorded", async () => {
    const w = (world = await startAlertWorld());
    const held = heldSink();
    const bSent: string[] = [];
    const a = w.service("telegram", held.sink, { holder: "host-a:11:worker-a:1" });
    await queueFiring(w, "-100");
    const started = held.started();
    await a.beat();
    await started;
    expect(await w.store.alerts.firingCounts()).toEqual({ sending: 1 });

    w.clock.set(T0 + 5_000);
    const b = w.service("telegram", quietSink(bSent), { holder: "host-b:12:worker-b:1" });
    await b.start();
    await b.tick();
    expect(await w.store.alerts.firingCounts()).toEqual({ sending: 1 });

    held.release();
    await a.delivery.settled();
    expect(await w.store.alerts.firingCounts()).toEqual({ delivered: 1 });
    expect(held.sent).toEqual(["-100"]);
    expect(bSent).toEqual([]);
  });

  it("sends a gone worker's firing once more once its heartbeat has run out, recorded resent; that worker's late outcome does not overwrite it", async () => {
    const w = (world = await startAlertWorld());
    const held = heldSink();
    const bSent: string[] = [];
    const a = w.service("telegram", held.sink, { holder: "host-a:11:worker-a:1" });
    const b = w.service("telegram", quietSink(bSent), { holder: "host-b:12:worker-b:1" });
    await queueFiring(w, "-100");
    const started = held.started();
    await a.beat();
    await started;

    // Worker a stops beating mid-send (killed); b keeps going.
    const { ttlMs, renewMs } = alertLeaseTimes(PERIOD);
    const stillAlive = T0 + ttlMs - renewMs;
    w.clock.set(stillAlive);
    await b.beat();
    expect(await w.store.alerts.firingCounts()).toEqual({ sending: 1 });

    w.clock.set(T0 + ttlMs + renewMs);
    await b.tick();
    await b.delivery.settled();
    expect(await w.store.alerts.firingCounts()).toEqual({ resent: 1 });
    expect(bSent).toEqual(["-100"]);

    // a was only stalled: its late outcome finds the firing b's, and nothing is sent again.
    held.release();
    await a.delivery.settled();
    await b.tick();
    await b.delivery.settled();
    expect(await w.store.alerts.firingCounts()).toEqual({ resent: 1 });
    expect(bSent).toEqual(["-100"]);
    expect(held.sent).toEqual(["-100"]);
  });
});
