/**
 * The day's compute units: what the key has spent since midnight UTC, and how fast each lane
 * may spend the rest. With `MARKET_API_DAILY_UNITS` set, the spend is paced over the day so
 * the service's daily limit (403) is not reached before midnight; background lanes give way
 * first, a person last.
 *
 * The ledger is an interface so that several workers on one key can share it (a Redis one);
 * the pacer keeps a local view that every charge's answer corrects.
 */
import { createHash } from "node:crypto";
import type { Lane } from "./scheduler-lanes.js";

export const DAY_MS = 86_400_000;

/**
 * A read of the shared ledger's total this recent serves another look at it: the gauges of one
 * scrape read it together, and other workers' spend shows within a scrape or two.
 */
const SHARED_READ_FRESH_MS = 5_000;

/** Units spent per UTC day by one API key, shared by everything that spends them. */
export interface UnitLedger {
  /** Adds `units` to `day`'s spend (days since the epoch, UTC) and resolves with the day's total. */
  add(day: number, units: number): Promise<number>;
  /** The day's total so far. */
  total(day: number): Promise<number>;
}

/** How a shared ledger names an API key's count: a hash, so the key itself never leaves the process. */
export function ledgerKeyName(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("base64url").slice(0, 16);
}

/** The ledger of one process. */
export class MemoryUnitLedger implements UnitLedger {
  private day = -1;
  private units = 0;

  add(day: number, units: number): Promise<number> {
    if (day !== this.day) {
      this.day = day;
      this.units = 0;
    }
    this.units += units;
    return Promise.resolve(this.units);
  }

  total(day: number): Promise<number> {
    return Promise.resolve(day === this.day ? this.units : 0);
  }
}

/**
 * How far each lane may run ahead of an even spend: at a fraction `f` of the day, a lane may
 * have spent `daily · min(1, f · factor + slack)`. A person gets a tenth of the day ahead of
 * the pace, refreshes stay under it.
 */
const PACE: Readonly<Record<Lane, { factor: number; slack: number }>> = {
  people: { factor: 1, slack: 0.1 },
  alerts: { factor: 1, slack: 0.05 },
  feed: { factor: 1, slack: 0.02 },
  digest: { factor: 1, slack: 0.02 },
  refresh: { factor: 0.9, slack: 0 },
};

export interface DailyUnitsOptions {
  /** The plan's units per day; undefined counts without pacing. */
  dailyUnits?: number;
  ledger?: UnitLedger;
  now: () => number;
  /** Told when a shared ledger could not be read or written; the local count goes on. */
  onLedgerError?: (e: unknown) => void;
  /**
   * Lanes held to a share of the day's units (0 < share ≤ 1), paced over the day as the whole
   * is; counted by this process. Default none.
   */
  shares?: Partial<Record<Lane, number>>;
}

/** Counts the day's spend and says when a lane may spend more. */
export class DailyUnits {
  readonly daily: number | undefined;
  private readonly ledger: UnitLedger;
  private readonly now: () => number;
  private readonly onLedgerError: (e: unknown) => void;
  private day = -1;
  private spentToday = 0;
  /** The latest read of the shared ledger's total for `day`, and when it started. */
  private reading: Promise<void> = Promise.resolve();
  private readAt = Number.NEGATIVE_INFINITY;
  private readonly shares: Partial<Record<Lane, number>>;
  /** Today's spend of each lane held to a share. */
  private readonly laneSpent = new Map<Lane, number>();

  constructor(opts: DailyUnitsOptions) {
    if (opts.dailyUnits !== undefined && (!Number.isFinite(opts.dailyUnits) || opts.dailyUnits <= 0)) {
      throw new RangeError(`dailyUnits must be a positive number of compute units, got ${opts.dailyUnits}`);
    }
    this.daily = opts.dailyUnits;
    this.ledger = opts.ledger ?? new MemoryUnitLedger();
    this.now = opts.now;
    this.onLedgerError = opts.onLedgerError ?? (() => undefined);
    this.shares = { ...opts.shares };
  }

  /**
   * Resolves once today's total in the shared ledger has been read (another worker's spend
   * counted): until then the pace knows only this process's spend.
   */
  known(): Promise<void> {
    this.roll();
    return this.reading;
  }

  /**
   * Resolves once today's total in the shared ledger has been read again (unless a read started
   * in the last few seconds): this process learns of other workers' spend otherwise only when
   * it spends itself.
   */
  readShared(): Promise<void> {
    this.roll();
    if (this.now() - this.readAt >= SHARED_READ_FRESH_MS) this.read();
    return this.reading;
  }

  /** Units spent today as far as this process knows. */
  get spent(): number {
    this.roll();
    return this.spentToday;
  }

  /** Units left today, when the plan's daily units are known. */
  get left(): number | undefined {
    return this.daily === undefined ? undefined : Math.max(0, this.daily - this.spent);
  }

  /** Ms until `lane` may spend `units` more: 0 when it may now. */
  waitFor(lane: Lane, units: number): number {
    if (this.daily === undefined) return 0;
    this.roll();
    const whole = this.paced(lane, this.spentToday + units, this.daily);
    const share = this.shares[lane];
    if (share === undefined) return whole;
    return Math.max(whole, this.paced(lane, (this.laneSpent.get(lane) ?? 0) + units, this.daily * share));
  }

  /** Units `lane` may spend today: its share of the day's, or all of them; undefined when the plan's are unknown. */
  dailyFor(lane: Lane): number | undefined {
    if (this.daily === undefined) return undefined;
    return this.daily * (this.shares[lane] ?? 1);
  }

  /** Ms until a spend reaching `total` of `budget` is within `lane`'s pace. */
  private paced(lane: Lane, total: number, budget: number): number {
    const t = this.now();
    const dayStart = Math.floor(t / DAY_MS) * DAY_MS;
    const { factor, slack } = PACE[lane];
    const need = total / budget;
    if (need > 1) return dayStart + DAY_MS - t;
    const at = (need - slack) / factor;
    const fraction = (t - dayStart) / DAY_MS;
    if (at <= fraction) return 0;
    return at >= 1 ? dayStart + DAY_MS - t : Math.ceil((at - fraction) * DAY_MS);
  }

  /** Counts `units` spent now, by `lane` when given. */
  charge(units: number, lane?: Lane): void {
    this.roll();
    this.spentToday += units;
    if (lane !== undefined && this.shares[lane] !== undefined) this.laneSpent.set(lane, (this.laneSpent.get(lane) ?? 0) + units);
    const day = this.day;
    this.ledger.add(day, units).then(
      (total) => {
        if (this.day === day) this.spentToday = Math.max(this.spentToday, total);
      },
      this.onLedgerError,
    );
  }

  /** The service said the day's units are spent: count them all. */
  exhausted(): void {
    this.roll();
    if (this.daily !== undefined) this.spentToday = Math.max(this.spentToday, this.daily);
  }

  /** Ms until the next UTC midnight, when the service's daily quota returns. */
  untilReset(): number {
    const t = this.now();
    return Math.floor(t / DAY_MS) * DAY_MS + DAY_MS - t;
  }

  private roll(): void {
    const day = Math.floor(this.now() / DAY_MS);
    if (day === this.day) return;
    this.day = day;
    this.spentToday = 0;
    this.laneSpent.clear();
    this.read();
  }

  private read(): void {
    const day = this.day;
    this.readAt = this.now();
    this.reading = this.ledger.total(day).then(
      (total) => {
        if (this.day === day) this.spentToday = Math.max(this.spentToday, total);
      },
      this.onLedgerError,
    );
  }
}
