/**
 * Per-key request rate and compute-unit ledger, with the plans of service-notes.md. Windows
 * are whole seconds (and UTC days) of the limiter's own clock, real time by default: the
 * market's clock may be pinned, and a pinned second would never refill.
 */
import { unitsOf } from "../market/cost.js";

/** Requests a second per plan (documented). */
export const PLANS = { free: 1, normal: 5, pro: 20 } as const;
export type PlanName = keyof typeof PLANS;

export type Admission = "ok" | "rate" | "quota";

export interface LimiterOptions {
  /** Requests per second per key; undefined = no limit. */
  rps?: number;
  /** Compute units per key per UTC day; undefined = no quota. */
  dailyUnits?: number;
  /** Epoch ms the windows and days are counted in; default Date.now. Tests inject their own. */
  clock?: () => number;
}

export class Limiter {
  private readonly windows = new Map<string, { second: number; count: number }>();
  private readonly spent = new Map<string, { day: number; units: number }>();
  private total = 0;

  private readonly clock: () => number;

  constructor(private readonly opts: LimiterOptions) {
    this.clock = opts.clock ?? Date.now;
  }

  /** Admits one request of `key` to `endpoint` now, charging its units when admitted. */
  admit(key: string, endpoint: string): Admission {
    const now = this.clock();
    const second = Math.floor(now / 1000);
    if (this.opts.rps !== undefined) {
      const w = this.windows.get(key);
      const count = w?.second === second ? w.count : 0;
      if (count >= this.opts.rps) return "rate";
      this.windows.set(key, { second, count: count + 1 });
    }
    const cost = unitsOf(endpoint);
    const day = Math.floor(now / 86_400_000);
    const s = this.spent.get(key);
    const used = s?.day === day ? s.units : 0;
    if (this.opts.dailyUnits !== undefined && used + cost > this.opts.dailyUnits) return "quota";
    this.spent.set(key, { day, units: used + cost });
    this.total += cost;
    return "ok";
  }

  /** Compute units charged since start or the last reset. */
  units(): number {
    return this.total;
  }

  /** Zeroes the reported total; the per-key windows and quotas keep running. */
  resetUnits(): void {
    this.total = 0;
  }
}
