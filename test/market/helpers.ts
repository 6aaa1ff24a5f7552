/** Shared pieces of the market client tests: keys, a fake clock, a client on a fake server. */
import { MarketClient, type MarketCallEvent, type MarketClientOptions } from "../../src/market/client.js";
import type { FakeServer } from "./fake-server.js";
import { deferred } from "../deferred.js";

export const V2_KEY = "v2KEYq8Zr3xW7mN1pL5sT9vB2cF6hJ0kD4gA8eY3uI7oP1wQ5zX9nM2bV6cR0tS4y";
export const V1_KEY = "v1KEYa1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X4y5Z6a7B8c9D0e";

export const ETH_TOKEN = "0x6982508145454ce325ddbe47a25d4ec3d2311933";
export const ETH_ID = `${ETH_TOKEN}-eth`;
export const PAIR_ID = "0xa43fe16908251ee70ef74718545e4fe6c5ccec9f-eth";

/** A clock the test owns: `sleep` records the wait and moves time at once. */
export function fakeClock(start = 1_795_000_000_000): { now: () => number; sleep: (ms: number) => Promise<void>; slept: number[]; advance: (ms: number) => void } {
  let t = start;
  const slept: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms);
      t += ms;
    },
    slept,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

export interface TestClient {
  client: MarketClient;
  events: MarketCallEvent[];
  slept: number[];
}

/** A client on `server` for both versions with a fake clock and no jitter. */
export function clientFor(server: FakeServer, overrides: Partial<MarketClientOptions> = {}): TestClient {
  const clock = fakeClock();
  const events: MarketCallEvent[] = [];
  const client = new MarketClient({
    v2: { baseUrl: server.url, key: V2_KEY },
    v1: { baseUrl: server.url, key: V1_KEY },
    timeoutMs: 2_000,
    retry: { maxAttempts: 3, budgetMs: 15_000, baseDelayMs: 100 },
    now: clock.now,
    sleep: clock.sleep,
    random: () => 1,
    onCall: (e) => events.push(e),
    ...overrides,
  });
  return { client, events, slept: clock.slept };
}

/** The rejection of `p`, failing the test if it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/**
 * A clock whose sleeps end only when the test moves time past them. Ending a sleep only
 * settles it: a test then waits for what the sleeper does next (a call sent, the next sleep
 * asked for), never for a number of turns of the event loop.
 */
export interface SteppedClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Every sleep asked for, in ms. */
  requested: number[];
  /** Resolves once a sleep is pending (at once if one is). */
  untilSleeping: () => Promise<void>;
  /** Once something sleeps, moves time to the earliest pending sleep's end and ends it (and any ending at the same time). */
  step: () => Promise<void>;
  /** Moves time forward by `ms` and ends the sleeps pending now that fall due; their sleepers wake at the new time. */
  advance: (ms: number) => void;
  /**
   * Moves time forward by up to `ms` through one sleeper's sleeps, one after another: after
   * each it ends, waits for the sleeper to ask for the next. Stops early, at the time of the
   * last sleep it ended, when `stop` settles: a sleeper that is done does not sleep again.
   */
  runFor: (ms: number, stop?: Promise<unknown>) => Promise<void>;
}

export function steppedClock(start = 0): SteppedClock {
  let t = start;
  let pending: { until: number; resolve: () => void }[] = [];
  let waiters: (() => void)[] = [];
  const requested: number[] = [];
  const earliest = () => [...pending].sort((a, b) => a.until - b.until)[0];
  const endDue = (): void => {
    const due = pending.filter((p) => p.until <= t).sort((a, b) => a.until - b.until);
    pending = pending.filter((p) => p.until > t);
    for (const p of due) p.resolve();
  };
  const untilSleeping = (): Promise<void> => {
    if (pending.length > 0) return Promise.resolve();
    const d = deferred();
    waiters.push(d.resolve);
    return d.promise;
  };
  return {
    now: () => t,
    sleep: (ms) => {
      requested.push(ms);
      const d = deferred();
      pending.push({ until: t + ms, resolve: d.resolve });
      const waiting = waiters;
      waiters = [];
      for (const resolve of waiting) resolve();
      return d.promise;
    },
    requested,
    untilSleeping,
    step: async () => {
      await untilSleeping();
      const next = earliest();
      if (next === undefined) throw new Error("nothing is sleeping");
      t = Math.max(t, next.until);
      endDue();
    },
    advance: (ms) => {
      t += ms;
      endDue();
    },
    runFor: async (ms, stop) => {
      const end = t + ms;
      let stopped = false;
      const done = stop?.then(
        () => void (stopped = true),
        () => void (stopped = true),
      );
      for (;;) {
        if (!stopped) await (done === undefined ? untilSleeping() : Promise.race([untilSleeping(), done]));
        if (stopped) return;
        const next = earliest();
        if (next === undefined || next.until > end) break;
        t = Math.max(t, next.until);
        endDue();
      }
      t = end;
    },
  };
}
