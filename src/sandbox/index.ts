/**
 * The sandbox: a local stand-in for the Token Market Data Service. `startSandbox()` builds a
 * seeded synthetic market and serves every v1 (`/api/v1/…`) and v2 (`/v2/…`) endpoint on one
 * loopback port, with fault injection, quirks mode, a per-key rate limiter and a request
 * counter. Used by demo mode, tests and benchmarks.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { FaultPlan, type FaultSpec } from "./faults.js";
import { Limiter, PLANS, type PlanName } from "./limiter.js";
import { Market } from "./market.js";
import type { PlacedSwap } from "./placed-swaps.js";
import { Rankings } from "./ranks.js";
import type { SandboxPair } from "./types.js";
import { Pipeline, type SandboxLogger, type SandboxStats } from "./server.js";

export { HOSTILE_TOKENS, type HostileToken } from "./hostile.js";
export { FAULT_KINDS, parseFaults, type FaultKind, type FaultSpec } from "./faults.js";
export { PLANS, type PlanName } from "./limiter.js";
export type { Market } from "./market.js";
export type { PlacedSwap } from "./placed-swaps.js";
export type { SandboxLogger, SandboxStats } from "./server.js";
export type { PriceMove, RiskProfile, SandboxPair, SandboxToken, Tag } from "./types.js";

/** Demo v2 key accepted by default (64 alphanumerics, like the service's keys). */
export const DEMO_V2_KEY = "sandboxV2demoKey0000000000000000000000000000000000000000000000000";
/** Demo v1 key accepted by default; refused by v2, as the v2 key is refused by v1. */
export const DEMO_V1_KEY = "sandboxV1demoKey0000000000000000000000000000000000000000000000000";

export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (a free port). */
  port?: number;
  /** Key accepted by v2 in `X-API-KEY`; default DEMO_V2_KEY. */
  v2Key?: string;
  /** Key accepted by v1 in `Svc-Auth`; default DEMO_V1_KEY. */
  v1Key?: string;
  /** Seed of the market and of fault decisions; default 1. */
  seed?: number;
  /** Clock, epoch ms; default `time` when given, else Date.now. */
  now?: () => number;
  /** Pins the clock at this epoch ms (ignored when `now` is given). */
  time?: number;
  /** Faults in force from the start; default none. */
  faults?: readonly FaultSpec[];
  /** Reproduce the real service's type deviations; default false (exact spec types). */
  quirks?: boolean;
  /** Per-key request limit: a plan name or requests per second; default off. */
  rateLimit?: PlanName | { rps: number };
  /** Compute units per key per UTC day before 403; default unlimited. */
  dailyUnits?: number;
  /**
   * Clock of the rate limit and the daily quota, epoch ms; default Date.now, never the market's
   * clock, which `time` pins. Tests pass their own to refill the limits without sleeping.
   */
  limiterClock?: () => number;
  /** Waits `ms` for the latency fault; default setTimeout. Tests pass their own to avoid sleeping. */
  delay?: (ms: number) => Promise<void>;
  /** Number of tokens; default 2,400. */
  tokenCount?: number;
  logger?: SandboxLogger;
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:40123 (v2 under /v2, v1 under /api/v1). */
  url: string;
  v2Key: string;
  v1Key: string;
  /** The synthetic market, to read ground truth in tests. */
  market: Market;
  /** Requests served since start or the last reset. */
  stats(): SandboxStats;
  resetStats(): void;
  /**
   * Resolves once `count` requests to `endpoint` (to any endpoint, when undefined) have arrived
   * since the last reset: a test waits for the request it caused, not for time to pass.
   */
  received(endpoint: string | undefined, count: number): Promise<void>;
  /** Places swaps on a pair (`<pair>-<chain>`), served beside its own stream from their `indexedAt`. */
  placeSwaps(pairId: string, swaps: readonly PlacedSwap[]): void;
  /** Silences a pair's own stream: from now on it serves only the swaps placed on it. */
  quietPair(pairId: string): void;
  /** Replaces the faults in force (and restarts their seeded decisions). */
  setFaults(faults: readonly FaultSpec[]): void;
  clearFaults(): void;
  /** Stops listening and drops open connections, hanging ones included. */
  close(): Promise<void>;
}

/** Starts a sandbox; resolves once it listens. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const pinned = opts.time;
  const now = opts.now ?? (pinned !== undefined ? () => pinned : Date.now);
  const seed = opts.seed ?? 1;
  const market = new Market({ seed, openedAt: now(), count: opts.tokenCount });
  const faults = new FaultPlan(seed);
  faults.set(opts.faults ?? []);
  const rate = opts.rateLimit;
  const limiter = new Limiter({
    rps: rate === undefined ? undefined : typeof rate === "string" ? PLANS[rate] : rate.rps,
    dailyUnits: opts.dailyUnits,
    clock: opts.limiterClock,
  });
  const v2Key = opts.v2Key ?? DEMO_V2_KEY;
  const v1Key = opts.v1Key ?? DEMO_V1_KEY;
  if (v1Key === v2Key) throw new Error("sandbox: the v1 key must differ from the v2 key, so each version refuses the other's");
  const pipeline = new Pipeline({
    market, rankings: new Rankings(market), faults, limiter, v1Key, v2Key, quirks: opts.quirks ?? false, now,
    delay: opts.delay ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))), logger: opts.logger,
  });
  const server: Server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => void pipeline.handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    v2Key,
    v1Key,
    market,
    stats: () => pipeline.snapshotStats(),
    resetStats: () => pipeline.resetStats(),
    received: (endpoint, count) => pipeline.received(endpoint, count),
    placeSwaps: (pairId, swaps) => market.placed.place(knownPair(market, pairId), swaps),
    quietPair: (pairId) => market.placed.quiet(knownPair(market, pairId)),
    setFaults: (f) => faults.set(f),
    clearFaults: () => faults.set([]),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function knownPair(market: Market, pairId: string): SandboxPair {
  const pair = market.pair(pairId);
  if (!pair) throw new Error(`sandbox: no pair ${pairId}`);
  return pair;
}
