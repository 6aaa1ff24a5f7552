/**
 * Who is asking the market, carried through the async calls of one piece of work: its lane
 * and, for a person, the deadline of the answer. Commands, the cache and the client keep
 * their signatures; the core opens an ask around a command, the cache around a background
 * refresh, and the client reads it when it schedules a call.
 *
 * The cache also leaves here what it served from older data, so the reply can say how old
 * and why.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { isMarketError } from "./errors.js";
import type { Lane } from "./scheduler-lanes.js";

/** Why a lookup was answered from older data. */
/** `quota`: the service said its daily quota is spent (403); `saving`: this bot's own pace of the day's units held the call, and the service received nothing. */
export type StaleReason = "slow" | "busy" | "quota" | "saving" | "failing";

export interface StaleServed {
  /** When the served value was fetched (epoch ms). */
  fetchedAt: number;
  why: StaleReason;
  /** When the service is expected to answer again (epoch ms), when known. */
  backAt?: number;
}

export interface Ask {
  lane: Lane;
  /** Epoch ms by which the asker must have its answer, on `now`'s clock; absent for work that can wait. */
  deadline?: number;
  /** The clock the deadline is on: the caller's, which need not be the market client's. */
  now: () => number;
  /**
   * Epoch ms after which a lookup with older data at hand stops waiting for fresh data: the
   * whole command's patience, so a second lookup after a first one does not wait as long again.
   */
  patientUntil?: number;
  /**
   * A call is refused unless one more of the key's turns fits after it before the deadline: the
   * asker still has a call to make with what these find (`/price`'s batch price after its searches).
   */
  leaveOneTurn?: boolean;
  /** Lookups of this ask served from older data. */
  stale: StaleServed[];
}

const storage = new AsyncLocalStorage<Ask>();

/** A new ask of `lane`, answered by `deadline` (epoch ms on `now`'s clock) when a person waits. */
export function newAsk(lane: Lane, deadline?: number, now: () => number = Date.now): Ask {
  return { lane, deadline, now, stale: [] };
}

/** Ms left until the current ask's deadline; undefined when nobody waits for it. */
export function timeLeft(ask: Ask | undefined): number | undefined {
  return ask?.deadline === undefined ? undefined : ask.deadline - ask.now();
}

/** Runs `fn` as `ask`: every market call it makes, however deep, is scheduled on its lane and deadline. */
export function asking<T>(ask: Ask, fn: () => T): T {
  return storage.run(ask, fn);
}

/** The ask the current work runs in, if any. */
export function currentAsk(): Ask | undefined {
  return storage.getStore();
}

/** Why the service gave no answer in time, when that is the failure: `error` is no fault, only late. */
export function lateReason(error: unknown): StaleReason | undefined {
  if (!isMarketError(error)) return undefined;
  if (error.kind === "busy" || error.kind === "rate_limited") return "busy";
  if (error.kind === "quota") return error.status === 403 ? "quota" : "saving";
  if (error.kind === "timeout") return "slow";
  return undefined;
}
