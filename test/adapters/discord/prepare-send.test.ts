/**
 * A Discord post claimed in the database (an alert here, a digest alike) takes its slot of the
 * workers' shared REST rate before the claim: the real adapter on the fake Discord, with the
 * rate's ledger held at the moment the post asks it for a slot.
 */
import { createPostRenderer } from "../../../src/core/posts/renderer.js";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createAlertDelivery } from "../../../src/alerts/delivery.js";
import type { FiredPayload } from "../../../src/core/posts/alert.js";
import { createPacedQueue } from "../../../src/digest/paced-queue.js";
import { memoryPaceLedger, type PaceLedger } from "../../../src/digest/pace-ledger.js";
import { startHarness, type Harness } from "./harness.js";
import { deferred } from "../../deferred.js";

const CHANNEL = "500000000000000951";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The workers' global rate, kept in process as Redis keeps it for several; `holdNext` holds the next slot asked for. */
function heldLedger() {
  // No spacing of its own: the slot the test holds is the whole of the rate here.
  const base = memoryPaceLedger({});
  let held: { reached: () => void; release: Promise<void> } | undefined;
  let takes = 0;
  const ledger: PaceLedger = {
    async take(chatIds, t) {
      takes++;
      const h = held;
      held = undefined;
      if (h !== undefined) {
        h.reached();
        await h.release;
      }
      return base.take(chatIds, t);
    },
    answered: (chatId, stamp, at) => base.answered(chatId, stamp, at),
    pause: (until) => base.pause(until),
    hold: (chatId, until) => base.hold(chatId, until),
  };
  return {
    ledger,
    takes: () => takes,
    holdNext: (release: Promise<void>) => new Promise<void>((reached) => (held = { reached, release })),
  };
}

describe("Discord posts claimed after the shared REST rate", () => {
  it("keeps an alert queued while the shared rate holds its slot, and posts it once after the claim without asking the rate again", async () => {
    const rate = heldLedger();
    // The gate's clock stands still from the held slot on: the turn reserved before the claim stays good however slowly a busy machine gets from claim to request.
    let stopped: number | undefined = undefined;
    const h = (harness = await startHarness({ adapter: { restLedger: rate.ledger, now: () => stopped ?? Date.now() } }));
    const now = Date.now();
    const r = await h.store.alerts.addAlert(
      { platform: "discord", chatId: CHANNEL, tokenId: "wif-solana", symbol: "WIF", chain: "solana", rule: "above", level: "2", anchorPrice: "1", anchorAt: now },
      20,
      now,
    );
    if (!("alert" in r)) throw new Error("full");
    const payload: FiredPayload = { number: r.alert.number, tokenId: "wif-solana", symbol: "WIF", chain: "solana", rule: "above", level: "2", from: "1", price: "2.5", at: now };
    await h.store.alerts.commitCheck([], [{ alertId: r.alert.id, anchorAt: r.alert.anchorAt, set: { armed: false }, notice: { kind: "fired", payload: JSON.stringify(payload) } }], now);
    const delivery = createAlertDelivery({
      alerts: h.store.alerts,
      chats: h.store,
      leases: h.store.subscriptions,
      sender: "host-a:11:a",
      heartbeatTtlMs: 40_000,
      adapters: { discord: h.adapter },
      queues: { discord: createPacedQueue({ maxInFlight: 1 }) },
      core: createPostRenderer({ settings: h.store, source: "test", log: pino({ level: "silent" }) }),
      logger: pino({ level: "silent" }),
    });
    const posts = () => h.fake.requests.filter((q) => q.method === "POST" && q.path === `/channels/${CHANNEL}/messages`);

    const open = deferred();
    const reached = rate.holdNext(open.promise);
    const takesBefore = rate.takes();
    expect(await delivery.heartbeat()).toBe(true);
    const flushed = await delivery.flush();
    await reached;
    stopped = Date.now();
    expect(await h.store.alerts.firingCounts()).toEqual({ queued: 1 });
    expect(posts()).toEqual([]);

    open.resolve();
    await flushed.done;
    expect(await h.store.alerts.firingCounts()).toEqual({ delivered: 1 });
    expect(posts()).toHaveLength(1);
    expect(rate.takes() - takesBefore).toBe(1);
  });
});
