import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { Store } from "../../src/store/types.js";
import { createLeaseKeeper, type LeaseKeeper } from "../../src/workers/lease-keeper.js";

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

describe("a lease kept by one worker of many", () => {
  it("is held by the first worker only, and taken by another once its holder stops renewing it", async () => {
    const s = await store();
    const clock = { t: 1_000_000 };
    let aliveA = true;
    // worker-a's store calls stop reaching the database when it dies.
    const leasesA = {
      acquireLease: (...args: Parameters<Store["subscriptions"]["acquireLease"]>) =>
        aliveA ? s.subscriptions.acquireLease(...args) : Promise.reject(new Error("worker gone")),
      releaseLease: (...args: Parameters<Store["subscriptions"]["releaseLease"]>) => s.subscriptions.releaseLease(...args),
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

  it("a worker restarted under the same WORKER_ID takes its lease back at once", async () => {
    const s = await store();
    const clock = { t: 1_000_000 };
    expect(await keeper(s, "worker-a", clock).start()).toBe(true);
    expect(await keeper(s, "worker-a", clock).start()).toBe(true);
  });
});
