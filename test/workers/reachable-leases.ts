/** The store's lease calls as one worker sees them, through a PostgreSQL outage the test turns on and off. */
import { StoreError } from "../../src/store/errors.js";
import type { SubscriptionStore } from "../../src/store/types.js";

export type LeaseCalls = Pick<SubscriptionStore, "acquireLease" | "releaseLease" | "leaseHolder" | "takeOverLease">;

/** `sub`'s lease calls, each failing as an unreachable PostgreSQL does while `view.down`, after telling `onFailed`. */
export function reachableLeases(sub: SubscriptionStore, view: { down: boolean }, onFailed: () => void): LeaseCalls {
  const call = <A extends unknown[], R>(f: (...a: A) => Promise<R>) => async (...a: A): Promise<R> => {
    if (!view.down) return f(...a);
    onFailed();
    throw new StoreError("unavailable", "the PostgreSQL database at DATABASE_URL (leases) cannot be reached: connect ECONNREFUSED");
  };
  return {
    acquireLease: call(sub.acquireLease.bind(sub)),
    releaseLease: call(sub.releaseLease.bind(sub)),
    leaseHolder: call(sub.leaseHolder.bind(sub)),
    takeOverLease: call(sub.takeOverLease.bind(sub)),
  };
}
