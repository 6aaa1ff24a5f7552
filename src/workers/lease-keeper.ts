/**
 * A named lease kept by one worker of many: it is taken when free, renewed well before it
 * runs out, and lost when a renewal fails, so that whatever only one worker may do (long
 * polling, setting the webhook) is done by exactly one, and by another within `ttlMs` plus
 * one renewal period after its holder dies. The lease lives in the store's `leases` table:
 * the store is always there (PostgreSQL for several workers), where Redis is a help that may
 * be away.
 */
import type { Logger } from "pino";
import type { SubscriptionStore } from "../store/types.js";

export interface LeaseKeeperOptions {
  leases: Pick<SubscriptionStore, "acquireLease" | "releaseLease">;
  name: string;
  /** This worker in the lease (WORKER_ID plus a random part, so a restart is a new holder). */
  holder: string;
  /** How long the lease lasts without renewal. Default 20 000 ms. */
  ttlMs?: number;
  /** How often it is taken or renewed. Default a quarter of `ttlMs`. */
  renewMs?: number;
  logger: Logger;
  now?: () => number;
  /** Called when this worker comes to hold the lease (true) and when it no longer does (false). */
  onChange?: (held: boolean) => void;
}

export interface LeaseKeeper {
  readonly name: string;
  readonly holder: string;
  held(): boolean;
  /** Tries once now, then keeps trying and renewing in the background; resolves after the first try. */
  start(): Promise<boolean>;
  /** Stops renewing and gives the lease up, so another worker takes it at once. */
  stop(): Promise<void>;
}

export function createLeaseKeeper(opts: LeaseKeeperOptions): LeaseKeeper {
  const now = opts.now ?? Date.now;
  const ttlMs = opts.ttlMs ?? 20_000;
  const renewMs = opts.renewMs ?? Math.max(250, Math.floor(ttlMs / 4));
  let held = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let trying: Promise<boolean> | undefined;

  const set = (next: boolean): void => {
    if (next === held) return;
    held = next;
    opts.logger.info({ lease: opts.name, holder: opts.holder }, next ? "lease taken: this worker does it" : "lease lost: another worker does it");
    opts.onChange?.(next);
  };

  const attempt = async (): Promise<boolean> => {
    try {
      set(await opts.leases.acquireLease(opts.name, opts.holder, ttlMs, now()));
    } catch (e) {
      // A store that cannot be reached cannot vouch for the lease: give way rather than risk two holders.
      opts.logger.warn({ lease: opts.name, err: e instanceof Error ? e.message : String(e) }, "lease could not be renewed");
      set(false);
    }
    return held;
  };

  const loop = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      trying = attempt().finally(loop);
    }, renewMs);
    timer.unref();
  };

  return {
    name: opts.name,
    holder: opts.holder,
    held: () => held,
    async start() {
      trying = attempt();
      const first = await trying;
      loop();
      return first;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await trying?.catch(() => undefined);
      if (!held) return;
      set(false);
      await opts.leases.releaseLease(opts.name, opts.holder).catch(() => undefined);
    },
  };
}

/**
 * Gives a lease up at a stop. A store that cannot be reached then (PostgreSQL down) is no
 * failure of the stop: the lease runs out by itself and another worker takes it then.
 */
export async function releaseAtStop(
  leases: Pick<SubscriptionStore, "releaseLease">,
  name: string,
  holder: string,
  logger: Logger,
): Promise<void> {
  try {
    await leases.releaseLease(name, holder);
  } catch (e) {
    logger.warn({ lease: name, err: e instanceof Error ? e.message : String(e) }, "lease not given up at stop: the store is unreachable; it runs out by itself");
  }
}
