/**
 * Runs the sweep every period on one worker: the one holding the store's `calls-sweep` lease,
 * so several processes on one key read each token once. The lease lives a little over two
 * periods, so a worker that dies hands the sweep on within that; a sweep that is still running
 * when the next is due is not doubled.
 */
import { logTurnFailure } from "../store/errors.js";
import type { SubscriptionStore } from "../store/types.js";
import { leadOrTakeOver } from "../workers/local-holder.js";
import { sweepOnce, type SweepDeps, type SweepResult } from "./sweep.js";

const LEASE = "calls-sweep";

export interface Sweeper {
  /** Whether this worker held the sweep's lease at its last try (for /readyz). */
  leading(): boolean;
  /** One sweep now if this worker leads (tests, the first run); undefined when another worker leads. */
  tick(): Promise<SweepResult | undefined>;
  start(): void;
  stop(): Promise<void>;
}

export interface SweeperOptions extends SweepDeps {
  leases: Pick<SubscriptionStore, "acquireLease" | "leaseHolder" | "takeOverLease" | "releaseLease">;
  /** This worker's name in the lease. */
  holder: string;
}

export function createSweeper(opts: SweeperOptions): Sweeper {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<SweepResult | undefined> | undefined;
  let stopped = false;
  let leading = false;

  const sweep = async (): Promise<SweepResult | undefined> => {
    leading = await leadOrTakeOver(opts.leases, LEASE, opts.holder, opts.periodMs * 2 + 60_000, opts.now(), "calls sweep", opts.log);
    if (!leading) return undefined;
    const result = await sweepOnce(opts);
    opts.log.info({ ...result }, "calls sweep read called tokens' K-lines");
    return result;
  };

  const tick = (): Promise<SweepResult | undefined> => {
    running ??= sweep()
      .catch((e: unknown) => {
        // A store outage is the database's warning and readiness, not an error of the sweep's each period.
        logTurnFailure(opts.log, e, "calls sweep failed");
        return undefined;
      })
      .finally(() => (running = undefined));
    return running;
  };

  return {
    leading: () => leading,
    tick,
    start() {
      if (stopped) return;
      void tick();
      timer = setInterval(() => void tick(), opts.periodMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      leading = false;
      await opts.leases.releaseLease(LEASE, opts.holder).catch(() => undefined);
    },
  };
}
