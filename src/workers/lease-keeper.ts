/**
 * A named lease kept by one worker of many: it is taken when free, renewed well before it
 * runs out, and given up when another worker holds it, so that whatever only one worker may do
 * (long polling, setting the webhook) is done by exactly one, and by another within `ttlMs`
 * plus one renewal period after its holder dies. The lease lives in the store's `leases` table:
 * the store is always there (PostgreSQL for several workers), where Redis is a help that may
 * be away.
 *
 * While the store cannot be reached the holder keeps the lease and goes on with its work: no
 * other worker can take it meanwhile, since taking needs the store too. The first renewal once
 * the store answers either renews it or finds another holder and gives way. A worker that only
 * it cut off from the store (a partition) may then overlap with the one that took the lease
 * for a moment; the work itself must tell it so (`giveWay`), as Telegram's 409 tells a second
 * poller.
 */
import type { Logger } from "pino";
import { isStoreUnreachable } from "../store/errors.js";
import type { SubscriptionStore } from "../store/types.js";
import { holderWorker } from "./holder.js";
import { localHolderGone } from "./local-holder.js";

export interface LeaseKeeperOptions {
  leases: Pick<SubscriptionStore, "acquireLease" | "releaseLease" | "leaseHolder" | "takeOverLease">;
  name: string;
  /** This process in the lease (`processHolder`: WORKER_ID plus a random part, so a restart is a new holder). */
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
  /** Held, but not renewed since the store stopped answering: kept until it answers again. */
  unrenewed(): boolean;
  /** Tries once now, then keeps trying and renewing in the background; resolves after the first try. */
  start(): Promise<boolean>;
  /**
   * Stops the lease's work at once: another worker was found doing it (`why`, for the log). The
   * lease is not given back: the next renewal takes it again when the store says it is still
   * this worker's, and never while the store cannot be reached.
   */
  giveWay(why: string): void;
  /** Stops renewing and gives the lease up, so another worker takes it at once. */
  stop(): Promise<void>;
}

export function createLeaseKeeper(opts: LeaseKeeperOptions): LeaseKeeper {
  const now = opts.now ?? Date.now;
  const ttlMs = opts.ttlMs ?? 20_000;
  const renewMs = opts.renewMs ?? Math.max(250, Math.floor(ttlMs / 4));
  const log = opts.logger.child({ lease: opts.name, holder: opts.holder });
  const worker = holderWorker(opts.holder);
  let held = false;
  let stopped = false;
  let outage = false;
  let timer: NodeJS.Timeout | undefined;
  let trying: Promise<boolean> | undefined;
  // A holder with this WORKER_ID seen keeping the lease, and since when: past one lease's life it renews it, so it runs.
  let rival: { holder: string; since: number } | undefined;
  let clashTold = false;

  const set = (next: boolean, line: string): void => {
    if (next === held) return;
    held = next;
    log.info(line);
    opts.onChange?.(next);
  };

  /** A holder this process succeeds on this machine (a restart) is gone: its lease is taken now, not when it runs out. */
  const takeFromGone = async (current: string): Promise<boolean> => {
    const gone = localHolderGone(current);
    if (!(gone === "this process" ? current !== opts.holder : gone)) return false;
    return opts.leases.takeOverLease(opts.name, current, opts.holder, ttlMs, now()).catch(() => false);
  };

  /** Two running processes with one WORKER_ID: both would claim to be the same worker everywhere (metrics, the operator's page). */
  const noticeClash = (current: string): void => {
    if (clashTold || worker === undefined || current === opts.holder || holderWorker(current) !== worker) {
      rival = undefined;
      return;
    }
    if (rival?.holder !== current) rival = { holder: current, since: now() };
    else if (now() - rival.since > ttlMs) {
      clashTold = true;
      log.warn({ other: current }, `WORKER_ID ${worker} is used by another running process; give each worker its own`);
    }
  };

  const attempt = async (): Promise<boolean> => {
    try {
      let got = await opts.leases.acquireLease(opts.name, opts.holder, ttlMs, now());
      if (!got) {
        // The store has answered that another holds it: a look at who that fails later changes nothing.
        const current = await opts.leases.leaseHolder(opts.name).catch(() => undefined);
        if (current !== undefined) got = await takeFromGone(current);
        if (current !== undefined && !got) noticeClash(current);
      }
      if (outage) {
        outage = false;
        log.info(got && held ? "the store answers again: lease renewed" : "the store answers again");
      }
      set(got, got ? "lease taken: this worker does it" : "lease lost: another worker does it");
    } catch (e) {
      const err = e instanceof Error ? e.message : String(e);
      if (!isStoreUnreachable(e)) {
        log.warn({ err }, "lease could not be renewed");
        set(false, "lease given up: it could not be renewed");
      } else if (!outage) {
        outage = true;
        log.warn({ err }, held ? "lease not renewed: the store is unreachable; this worker keeps it until the store answers" : "lease not taken: the store is unreachable");
      } else log.debug({ err }, "lease still not renewed: the store is unreachable");
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
    unrenewed: () => held && outage,
    async start() {
      trying = attempt();
      const first = await trying;
      loop();
      return first;
    },
    giveWay(why) {
      if (stopped) return;
      set(false, `lease given way: ${why}`);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await trying?.catch(() => undefined);
      if (!held) return;
      held = false;
      opts.onChange?.(false);
      // Said once the store took it back: with the store away it was not given up, and that is the line.
      if (await releaseAtStop(opts.leases, opts.name, opts.holder, opts.logger)) log.info("lease given up: this worker stops");
    },
  };
}

/**
 * Gives a lease up at a stop; false when the store could not take it back. A store that cannot
 * be reached then (PostgreSQL down) is no failure of the stop: the lease runs out by itself and
 * another worker takes it then.
 */
export async function releaseAtStop(
  leases: Pick<SubscriptionStore, "releaseLease">,
  name: string,
  holder: string,
  logger: Logger,
): Promise<boolean> {
  try {
    await leases.releaseLease(name, holder);
    return true;
  } catch (e) {
    logger.warn({ lease: name, err: e instanceof Error ? e.message : String(e) }, "lease not given up at stop: the store is unreachable; it runs out by itself");
    return false;
  }
}
