import { beforeEach, describe, expect, it } from "vitest";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";
import { HEARTBEAT_PREFIX } from "../../src/alerts/senders.js";
import type { ChatKey, NewAlert, Store } from "../../src/store/types.js";

const group: ChatKey = { platform: "telegram", chatId: "-100" };
const alert = (chat: ChatKey, tokenId = "pepe-solana"): NewAlert => ({
  ...chat, tokenId, symbol: "PEPE", chain: "solana", rule: "above", level: "1", anchorPrice: "0.5", anchorAt: 1,
});
const watched = (tokenId: string) => ({ tokenId, symbol: tokenId.split("-")[0]!.toUpperCase(), chain: "solana" });

const engines = storeEngines();

/** Takes `sender`'s heartbeat for 1 000 ms from `now`, as its alert delivery does. */
const beat = (store: Store, sender: string, now: number) => store.subscriptions.acquireLease(HEARTBEAT_PREFIX + sender, sender, 1_000, now);

/** Two alerts of the group, each fired once: their firings queued at 5. */
async function twoFirings(store: Store) {
  for (let i = 0; i < 2; i++) {
    const { alert: a } = (await store.alerts.addAlert(alert(group), 20, 1)) as { alert: { id: number; anchorAt: number } };
    await store.alerts.commitCheck([], [{ alertId: a.id, anchorAt: a.anchorAt, set: { armed: false }, notice: { kind: "fired", payload: "{}" } }], 5);
  }
  return store.alerts.queuedFirings();
}

describe.each(ENGINES)("alerts and watchlists on %s", (engine) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await engines.database(engine);
  });

  it("numbers a chat's alerts and never reuses a number, even after deleting them all", async () => {
    const store = await db.open();
    const numbers = async () => (await store.alerts.listAlerts(group)).map((a) => a.number);
    for (let i = 0; i < 3; i++) await store.alerts.addAlert(alert(group), 20, 1);
    expect(await numbers()).toEqual([1, 2, 3]);
    expect(await store.alerts.removeAlerts(group, "all")).toBe(3);
    await store.alerts.addAlert(alert(group), 20, 2);
    expect(await numbers()).toEqual([4]);
    await store.alerts.addAlert(alert({ platform: "discord", chatId: "-100" }), 20, 2);
    expect((await store.alerts.listAlerts({ platform: "discord", chatId: "-100" }))[0]?.number).toBe(1);
  });

  it("refuses an alert over the chat's limit and says how many it has", async () => {
    const store = await db.open();
    await store.alerts.addAlert(alert(group), 2, 1);
    await store.alerts.addAlert(alert(group), 2, 1);
    expect(await store.alerts.addAlert(alert(group), 2, 1)).toEqual({ full: 2 });
  });

  it("adds watched tokens up to the limit and reports the ones it had or could not take", async () => {
    const store = await db.open();
    await store.watchlists.addWatched(group, [watched("a-solana")], 3, 1);
    const r = await store.watchlists.addWatched(group, ["a-solana", "b-solana", "c-solana", "d-solana"].map(watched), 3, 2);
    expect(r).toEqual({ added: ["b-solana", "c-solana"], already: ["a-solana"], refused: ["d-solana"] });
    expect((await store.watchlists.listWatched(group)).map((w) => w.tokenId)).toEqual(["a-solana", "b-solana", "c-solana"]);
  });

  it("lists each watched token once across chats, on the platforms asked for only", async () => {
    const store = await db.open();
    await store.watchlists.addWatched(group, ["b-solana", "a-solana"].map(watched), 50, 1);
    await store.watchlists.addWatched({ platform: "telegram", chatId: "-200" }, [watched("a-solana")], 50, 1);
    await store.watchlists.addWatched({ platform: "discord", chatId: "9" }, [watched("c-solana")], 50, 1);
    expect(await store.watchlists.watchedTokenIds(["telegram"])).toEqual(["a-solana", "b-solana"]);
    expect(await store.watchlists.watchedTokenIds([])).toEqual([]);
  });

  it("moves a migrated group's alerts, firings and watchlist to the new id, and forgets a gone chat's", async () => {
    const store = await db.open();
    const { alert: a } = (await store.alerts.addAlert(alert(group), 20, 1)) as { alert: { id: number; anchorAt: number } };
    await store.alerts.commitCheck([], [{ alertId: a.id, anchorAt: a.anchorAt, set: { armed: false }, notice: { kind: "fired", payload: "{}" } }], 5);
    await store.watchlists.addWatched(group, [watched("a-solana")], 50, 1);
    await store.moveChat(group, "-1009");
    const moved: ChatKey = { platform: "telegram", chatId: "-1009" };
    expect(await store.alerts.listAlerts(group)).toEqual([]);
    expect((await store.alerts.listAlerts(moved)).map((x) => x.number)).toEqual([1]);
    expect((await store.alerts.queuedFirings()).map((f) => f.chatId)).toEqual(["-1009"]);
    expect(await store.watchlists.listWatched(moved)).toHaveLength(1);
    // Numbering carries on where it was.
    await store.alerts.addAlert(alert(moved), 20, 6);
    expect((await store.alerts.listAlerts(moved)).map((x) => x.number)).toEqual([1, 2]);

    await store.forgetChat(moved);
    expect(await store.alerts.listAlerts(moved)).toEqual([]);
    expect(await store.alerts.queuedFirings()).toEqual([]);
    expect(await store.watchlists.listWatched(moved)).toEqual([]);
    expect(await store.alerts.armedAlerts()).toEqual([]);
  });

  it("marks firings a gone worker left mid-send as interrupted and keeps queued ones queued", async () => {
    const store = await db.open();
    for (let i = 0; i < 2; i++) {
      const { alert: a } = (await store.alerts.addAlert(alert(group), 20, 1)) as { alert: { id: number; anchorAt: number } };
      await store.alerts.commitCheck([], [{ alertId: a.id, anchorAt: a.anchorAt, set: { armed: false }, notice: { kind: "fired", payload: "{}" } }], 5);
    }
    const [first] = await store.alerts.queuedFirings();
    await beat(store, "host-a:1:x", 6);
    await beat(store, "host-b:2:y", 6);
    expect(await store.alerts.claimFiring(first!.id, "host-a:1:x", HEARTBEAT_PREFIX + "host-a:1:x", 6)).toBe("claimed");
    expect(await store.alerts.claimFiring(first!.id, "host-b:2:y", HEARTBEAT_PREFIX + "host-b:2:y", 6)).toBe("taken");
    expect(await store.alerts.interruptFirings(7, ["host-a:1:x"])).toBe(1);
    expect(await store.alerts.firingCounts()).toEqual({ interrupted: 1, queued: 1 });
  });

  it("interrupts only the sends of the workers named gone, leaving a live worker's send to record its outcome", async () => {
    const store = await db.open();
    for (let i = 0; i < 3; i++) {
      const { alert: a } = (await store.alerts.addAlert(alert(group), 20, 1)) as { alert: { id: number; anchorAt: number } };
      await store.alerts.commitCheck([], [{ alertId: a.id, anchorAt: a.anchorAt, set: { armed: false }, notice: { kind: "fired", payload: "{}" } }], 5);
    }
    const [dead, live, waiting] = await store.alerts.queuedFirings();
    for (const [f, sender] of [[dead!, "host-a:1:dead"], [live!, "host-b:2:live"]] as const) {
      await beat(store, sender, 6);
      expect(await store.alerts.claimFiring(f.id, sender, HEARTBEAT_PREFIX + sender, 6)).toBe("claimed");
    }
    expect(await store.alerts.sendersInFlight()).toEqual(["host-a:1:dead", "host-b:2:live"]);
    expect(await store.alerts.interruptFirings(7, ["host-a:1:dead"])).toBe(1);
    expect(await store.alerts.interruptFirings(7, [])).toBe(0);
    expect(await store.alerts.transitionFiring(live!.id, ["sending"], "delivered", 8)).toBe(true);
    expect(await store.alerts.firingCounts()).toEqual({ interrupted: 1, delivered: 1, queued: 1 });
    // The interrupted firing waits to be sent once more, with the queued one.
    expect((await store.alerts.queuedFirings()).map((f) => f.id)).toEqual([dead!.id, waiting!.id]);
    expect(await store.alerts.sendersInFlight()).toEqual([]);
  });

  it("claims a queued firing only under the sender's own unexpired heartbeat", async () => {
    const store = await db.open();
    const [a, b] = await twoFirings(store);
    const lease = HEARTBEAT_PREFIX + "host-a:1:x";
    // No heartbeat yet, then another worker's heartbeat: nothing claimed.
    expect(await store.alerts.claimFiring(a!.id, "host-a:1:x", lease, 6)).toBe("unleased");
    await beat(store, "host-b:2:y", 6);
    expect(await store.alerts.claimFiring(a!.id, "host-a:1:x", HEARTBEAT_PREFIX + "host-b:2:y", 6)).toBe("unleased");
    await beat(store, "host-a:1:x", 10);
    expect(await store.alerts.claimFiring(a!.id, "host-a:1:x", lease, 20)).toBe("claimed");
    // The heartbeat ran out (taken at 10 for 1 000 ms): the stalled sender claims nothing more.
    expect(await store.alerts.claimFiring(b!.id, "host-a:1:x", lease, 1_010)).toBe("unleased");
    expect(await store.alerts.firingCounts()).toEqual({ sending: 1, queued: 1 });
    await beat(store, "host-a:1:x", 1_020);
    expect(await store.alerts.claimFiring(b!.id, "host-a:1:x", lease, 1_030)).toBe("claimed");
  });

  it("claims an interrupted firing once more as a resend, and never one whose outcome was recorded", async () => {
    const store = await db.open();
    const [a, b] = await twoFirings(store);
    await beat(store, "host-a:1:dead", 6);
    await beat(store, "host-b:2:next", 6);
    expect(await store.alerts.claimFiring(a!.id, "host-a:1:dead", HEARTBEAT_PREFIX + "host-a:1:dead", 6)).toBe("claimed");
    expect(await store.alerts.claimFiring(b!.id, "host-a:1:dead", HEARTBEAT_PREFIX + "host-a:1:dead", 6)).toBe("claimed");
    expect(await store.alerts.settleFiring(b!.id, "host-a:1:dead", "delivered", 7)).toBe(true);
    expect(await store.alerts.interruptFirings(8, ["host-a:1:dead"])).toBe(1);
    expect(await store.alerts.claimFiring(a!.id, "host-b:2:next", HEARTBEAT_PREFIX + "host-b:2:next", 9)).toBe("resend");
    expect(await store.alerts.claimFiring(b!.id, "host-b:2:next", HEARTBEAT_PREFIX + "host-b:2:next", 9)).toBe("taken");
    // The first sender's late outcome finds the firing another's.
    expect(await store.alerts.settleFiring(a!.id, "host-a:1:dead", "delivered", 10)).toBe(false);
    expect(await store.alerts.settleFiring(a!.id, "host-b:2:next", "resent", 10)).toBe(true);
    expect(await store.alerts.firingCounts()).toEqual({ resent: 1, delivered: 1 });
    expect(await store.alerts.queuedFirings()).toEqual([]);
  });

  it("lets a sender record its outcome over 'interrupted', and no one else's", async () => {
    const store = await db.open();
    const [a, b] = await twoFirings(store);
    for (const [f, sender] of [[a!, "host-a:1:stalled"], [b!, "host-b:2:live"]] as const) {
      await beat(store, sender, 6);
      expect(await store.alerts.claimFiring(f.id, sender, HEARTBEAT_PREFIX + sender, 6)).toBe("claimed");
    }
    expect(await store.alerts.interruptFirings(2_000, ["host-a:1:stalled"])).toBe(1);
    expect(await store.alerts.settleFiring(a!.id, "host-b:2:live", "failed", 2_010)).toBe(false);
    expect(await store.alerts.settleFiring(a!.id, "host-a:1:stalled", "delivered", 2_010)).toBe(true);
    expect(await store.alerts.settleFiring(b!.id, "host-a:1:stalled", "delivered", 2_010)).toBe(false);
    expect(await store.alerts.settleFiring(b!.id, "host-b:2:live", "forbidden", 2_010)).toBe(true);
    // Settled is final: a second outcome is not written over the first.
    expect(await store.alerts.settleFiring(a!.id, "host-a:1:stalled", "failed", 2_020)).toBe(false);
    expect(await store.alerts.firingCounts()).toEqual({ delivered: 1, forbidden: 1 });
  });
});
