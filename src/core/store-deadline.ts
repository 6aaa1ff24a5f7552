/**
 * The store as commands see it: every call bounded by the answer deadline of the person
 * waiting. A database that hangs (PostgreSQL SIGSTOPped, a network cut) would otherwise hold
 * the command until the driver's 15 s query timeout and leave the market calls after it no
 * time, so the market would be blamed. Past the deadline the call fails as the database's:
 * a read as not answering, a write as not known to have been saved (it may still land).
 */
import { currentAsk, timeLeft } from "../market/ask.js";
import { StoreError } from "../store/errors.js";
import { STORE_READS } from "../store/store-reads.js";
import type { Store } from "../store/types.js";

const PARTS: ReadonlySet<string> = new Set(["subscriptions", "alerts", "watchlists", "buttonActions"]);

function byDeadline<T>(p: Promise<T>, name: string): Promise<T> {
  const left = timeLeft(currentAsk());
  if (left === undefined) return p;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // What the server says later is nobody's answer any more.
      p.catch(() => undefined);
      // Every call not known to only read may have changed something when it is given up.
      const write = !STORE_READS.has(name);
      reject(new StoreError("timeout", `the database did not answer ${name} within ${Math.round(left)} ms`, { write }));
    }, Math.max(0, left));
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function bounded<T extends object>(target: T): T {
  const parts = new Map<string | symbol, unknown>();
  return new Proxy(target, {
    get(t, prop) {
      const value: unknown = Reflect.get(t, prop, t);
      if (typeof prop === "string" && PARTS.has(prop) && typeof value === "object" && value !== null) {
        if (!parts.has(prop)) parts.set(prop, bounded(value));
        return parts.get(prop);
      }
      if (typeof value !== "function") return value;
      return (...args: unknown[]): unknown => {
        const result: unknown = Reflect.apply(value as (...a: unknown[]) => unknown, t, args);
        return result instanceof Promise && typeof prop === "string" ? byDeadline(result, prop) : result;
      };
    },
  });
}

/** `store` with each call bounded by the current ask's deadline (none outside a person's command). */
export function deadlineStore(store: Store): Store {
  return bounded(store);
}
