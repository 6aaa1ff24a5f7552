import { hostname } from "node:os";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { Store } from "../../src/store/types.js";
import { processHolder } from "../../src/workers/holder.js";
import { createLeaseKeeper, type LeaseKeeper } from "../../src/workers/lease-keeper.js";
import { lines, type Lines } from "../lines.js";
import { reachableLeases } from "./reachable-leases.js";

const log = pino({ level: "silent" });
const stores: Store[] = [];
const keepers: LeaseKeeper[] = [];
afterEach(async () => {
  for (const k of keepers.splice(0)) await k.stop();
  for (const s of stores.splice(0)) await s.close();
});

async function store(): Promise<Store> {
  const s = await openSqliteStore({ path: ":memory:" });
  stores.push(s);
  return s;
}

function keeper(s: Store, holder: string, clock: { t: number }): LeaseKeeper {
  const k = createLeaseKeeper({ leases: s.subscriptions, name: "telegram-polling", holder, ttlMs: 20_000, renewMs: 60_000, logger: log, now: () => clock.t });
  keepers.push(k);
  return k;
}

/** The log's messages, as they come. */
function logged(): { logger: pino.Logger; msgs: Lines } {
  const msgs = lines();
  const logger = pino({ level: "debug" }, { write: (line: string) => msgs.push(String((JSON.parse(line) as { msg: string }).msg)) });
  return { logger, msgs };
}

/** A worker's view of the store, which stops reaching PostgreSQL while `down`; `failed` counts the calls that found it so. */
function reachable(s: Store) {
  const view = { down: false, failed: 0, failures: lines() };
  const leases = reachableLeases(s.subscriptions, view, () => {
    view.failed++;
    view.failures.push(String(view.failed));
  });
  return { view, leases, tries: (n: number) => view.failures.until((all) => all.length >= n) };
}

describe("a lease kept by one worker of many", () => {
  it("is held by the first worker only, and taken by another once its holder stops renewing it", async () => {
    const s = await store();
    const clock = { t: 1_000_000 };
    let aliveA = true;
    // worker-a's store calls stop reaching the database when it dies.
    const leasesA = {
      ...s.subscriptions,
      acquireLease: (...args: Parameters<Store["subscriptions"]["acquireLease"]>) =>
        aliveA ? s.subscriptions.acquireLease(...args) : Promise.reject(new Error("worker gone")),
    };
    const a = createLeaseKeeper({ leases: leasesA, name: "telegram-polling", holder: "worker-a", ttlMs: 20_000, renewMs: 5, logger: log, now: () => clock.t });
    keepers.push(a);
    let takenByB!: () => void;
    const taken = new Promise<void>((r) => (takenByB = r));
    const b = createLeaseKeeper({
      leases: s.subscriptions, name: "telegram-polling", holder: "worker-b", ttlMs: 20_000, renewMs: 5, logger: log, now: () => clock.t,
      onChange: (held) => held && takenByB(),
    });
    keepers.push(b);
    expect(await a.start()).toBe(true);
    expect(await b.start()).toBe(false);
    aliveA = false;
    // Within the lease's 20 s worker-b waits; past them it takes the lease at its next try.
    clock.t += 19_000;
    expect(b.held()).toBe(false);
    clock.t += 1_001;
    await taken;
    expect(b.held()).toBe(true);
  });

  it("is given back at stop, so another worker takes it at once", async () => {
    const s = await store();
    const clock = { t: 1_000_000 };
    const a = keeper(s, "worker-a", clock);
    expect(await a.start()).toBe(true);
    await a.stop();
    expect(a.held()).toBe(false);
    expect(await keeper(s, "worker-b", clock).start()).toBe(true);
  });

  it("a worker restarted on this machine takes its lease back at once: the process that held it is gone", async () => {
    const s = await store();
    const clock = { t: 1_000_000 };
    expect(await s.subscriptions.acquireLease("telegram-polling", `${hostname()}:4194305:worker-a:before`, 20_000, clock.t)).toBe(true);
    expect(await keeper(s, processHolder("worker-a"), clock).start()).toBe(true);
  });

  it("a second running process with the same WORKER_ID waits, and says once that WORKER_ID is shared", async () => {
    const s = await store();
    const clock = { t: 1_000_000 };
    const other = "other-host:4242:worker-a:1f2e";
    const { logger, msgs } = logged();
    const renewed = lines();
    const leases = {
      ...s.subscriptions,
      // The other process renews its lease as time goes: it runs.
      acquireLease: async (...args: Parameters<Store["subscriptions"]["acquireLease"]>) => {
        await s.subscriptions.acquireLease("telegram-polling", other, 20_000, clock.t);
        clock.t += 3_000;
        renewed.push("");
        return s.subscriptions.acquireLease(...args);
      },
    };
    const k = createLeaseKeeper({ leases, name: "telegram-polling", holder: processHolder("worker-a"), ttlMs: 20_000, renewMs: 5, logger, now: () => clock.t });
    keepers.push(k);
    expect(await k.start()).toBe(false);
    await msgs.until((all) => all.some((m) => m.startsWith("WORKER_ID")));
    await renewed.until((all) => all.length >= 20);
    expect(k.held()).toBe(false);
    expect(msgs.all.filter((m) => m.startsWith("WORKER_ID"))).toEqual(["WORKER_ID worker-a is used by another running process; give each worker its own"]);
  });

  it("says the lease was given up at a stop, not lost to another worker", async () => {
    const s = await store();
    const { logger, msgs } = logged();
    const k = createLeaseKeeper({ leases: s.subscriptions, name: "telegram-polling", holder: "worker-a", renewMs: 60_000, logger });
    keepers.push(k);
    expect(await k.start()).toBe(true);
    await k.stop();
    expect(msgs.all).toEqual(["lease taken: this worker does it", "lease given up: this worker stops"]);
  });

  it("says only that the lease was not given up when the store cannot take it back at a stop", async () => {
    const s = await store();
    const a = reachable(s);
    const changes: boolean[] = [];
    const { logger, msgs } = logged();
    const k = createLeaseKeeper({ leases: a.leases, name: "telegram-polling", holder: "worker-a", renewMs: 60_000, logger, onChange: (h) => changes.push(h) });
    keepers.push(k);
    expect(await k.start()).toBe(true);
    a.view.down = true;
    await k.stop();
    expect(msgs.all).toEqual(["lease taken: this worker does it", "lease not given up at stop: the store is unreachable; it runs out by itself"]);
    expect([k.held(), changes]).toEqual([false, [true, false]]);
  });
});

describe("a lease while the store cannot be reached", () => {
  it("stays with its holder through the outage, and goes to the worker that took it once the store answers again", async () => {
    const s = await store();
    const clock = { t: 1_000_000 };
    const a = reachable(s);
    const changes: boolean[] = [];
    const { logger, msgs } = logged();
    const k = createLeaseKeeper({
      leases: a.leases, name: "telegram-polling", holder: "worker-a", ttlMs: 20_000, renewMs: 5, logger, now: () => clock.t, onChange: (h) => changes.push(h),
    });
    keepers.push(k);
    expect(await k.start()).toBe(true);
    a.view.down = true;
    clock.t += 60_000;
    await a.tries(3);
    expect([k.held(), k.unrenewed(), changes]).toEqual([true, true, [true]]);
    expect(msgs.all.filter((m) => m.startsWith("lease not renewed"))).toEqual(["lease not renewed: the store is unreachable; this worker keeps it until the store answers"]);

    // Only worker-a was cut off: worker-b took the run-out lease meanwhile.
    expect(await s.subscriptions.acquireLease("telegram-polling", "worker-b", 20_000, clock.t)).toBe(true);
    a.view.down = false;
    await msgs.until((all) => all.includes("lease lost: another worker does it"));
    expect([k.held(), changes]).toEqual([false, [true, false]]);
  });

  it("is renewed by its holder when the store answers again and no one took it", async () => {
    const s = await store();
    const clock = { t: 1_000_000 };
    const a = reachable(s);
    const { logger, msgs } = logged();
    const k = createLeaseKeeper({ leases: a.leases, name: "telegram-polling", holder: "worker-a", ttlMs: 20_000, renewMs: 5, logger, now: () => clock.t });
    keepers.push(k);
    expect(await k.start()).toBe(true);
    a.view.down = true;
    clock.t += 60_000;
    await a.tries(2);
    a.view.down = false;
    await msgs.until((all) => all.includes("the store answers again: lease renewed"));
    expect([k.held(), k.unrenewed()]).toEqual([true, false]);
    expect(await s.subscriptions.leaseHolder("telegram-polling")).toBe("worker-a");
  });

  it("is not taken by a worker that gave way while the store cannot be reached, and is taken again once it can", async () => {
    const s = await store();
    const clock = { t: 1_000_000 };
    const a = reachable(s);
    const changes = lines();
    const k = createLeaseKeeper({
      leases: a.leases, name: "telegram-polling", holder: "worker-a", ttlMs: 20_000, renewMs: 5, logger: log, now: () => clock.t, onChange: (h) => changes.push(String(h)),
    });
    keepers.push(k);
    expect(await k.start()).toBe(true);
    a.view.down = true;
    await a.tries(1);
    k.giveWay("Telegram says another worker polls (409 Conflict)");
    await a.tries(a.view.failed + 3);
    expect([k.held(), changes.all]).toEqual([false, ["true", "false"]]);
    a.view.down = false;
    await changes.until((all) => all.length === 3);
    expect([k.held(), changes.all]).toEqual([true, ["true", "false", "true"]]);
  });
});
