/**
 * The one alert checker of the bot. Each check takes the distinct tokens of every armed alert
 * and every watchlist, asks their prices in batch calls of at most 200 ids (`tvl_min` 0, so thin
 * tokens are not silently missing), judges each alert between the last price seen and this one,
 * and records the firings in the same transaction as the prices, before anything is sent.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "pino";
import { canonicalId } from "../cache/keys.js";
import type { MarketApi } from "../market/api.js";
import { readPrice } from "../market/decimal.js";
import { LIMITS } from "../market/limits.js";
import type { PriceMap } from "../market/schemas.js";
import type { Alert, AlertChange, Platform, Store, TokenSighting } from "../store/types.js";
import type { FiredPayload, PausedPayload } from "../core/posts/alert.js";
import { fires } from "../core/alerts/rules.js";
import { releaseAtStop } from "../workers/lease-keeper.js";
import { leadOrTakeOver } from "../workers/local-holder.js";

/** Ids in one batch price call (the service's limit). */
export const BATCH_MAX = LIMITS.batchPrices.maxIds;
/** A token without a price this long pauses its alerts. */
export const MISSING_PAUSES_AFTER_MS = 24 * 3_600_000;
const LEASE = "alerts.checker";

export interface CheckerOptions {
  store: Pick<Store, "alerts" | "watchlists" | "subscriptions">;
  /** Batch prices on the scheduler's lane for alert checks. */
  prices: Pick<MarketApi, "batchPrices">;
  /** Platforms whose alerts and watchlists are checked (those the bot delivers to). */
  platforms: readonly Platform[];
  /** Shortest time between two firings of one `move` alert, ms. */
  cooldownMs: number;
  /** How long the checker's lease lasts without renewal, ms (lease-times.ts). */
  leaseTtlMs: number;
  logger: Logger;
  now?: () => number;
  /** Identifies this process in the lease. Default `host:pid:random`. */
  holder?: string;
}

export interface CheckReport {
  /** False when another process holds the checker's lease: nothing was asked. */
  leader: boolean;
  /** Distinct tokens asked. */
  tokens: number;
  /** Batch price calls made, and how many of them failed. */
  calls: number;
  failedCalls: number;
  /** Firings and pause notices queued. */
  queued: number;
}

export interface AlertChecker {
  /** This process in the lease. */
  readonly holder: string;
  /** Takes or renews the lease without checking; true when this process holds it. */
  lead(): Promise<boolean>;
  /** One check; checks do not overlap (a second call while one runs gets the same one). */
  check(): Promise<CheckReport>;
  /**
   * Gives the lease up (at stop). A check still waiting for prices (the day's pace can hold its
   * calls for hours) ends without recording anything; the next check, here or elsewhere, redoes it.
   */
  release(): Promise<void>;
}

/** A usable price from a batch entry (the strict reading: garbage is no price), or undefined. */
function priceOf(map: ReadonlyMap<string, PriceMap[string]>, id: string): { text: string; value: number } | undefined {
  return readPrice(map.get(id)?.current_price_usd);
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export function createAlertChecker(opts: CheckerOptions): AlertChecker {
  const now = opts.now ?? Date.now;
  const holder = opts.holder ?? `${hostname()}:${process.pid}:${randomUUID()}`;
  const log = opts.logger;
  const platforms = new Set(opts.platforms);
  let running: Promise<CheckReport> | undefined;
  let release: () => void = () => undefined;
  const released = new Promise<"released">((resolve) => (release = () => resolve("released")));
  /** Takes or renews the lease; takes it over at once from a process of this host that no longer runs (a restart after a SIGKILL). */
  const lead = (t: number): Promise<boolean> => leadOrTakeOver(opts.store.subscriptions, LEASE, holder, opts.leaseTtlMs, t, "alert checker", log);

  /** Prices of `ids` in calls of ≤ 200; the ids of a failed call are left out of `answered`. */
  const fetchPrices = async (ids: readonly string[]) => {
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += BATCH_MAX) chunks.push(ids.slice(i, i + BATCH_MAX));
    const results = await Promise.allSettled(
      chunks.map((tokenIds) => Promise.race([opts.prices.batchPrices({ tokenIds, tvlMin: 0 }), released.then(() => Promise.reject(new Error("stopping")))])),
    );
    const prices = new Map<string, PriceMap[string]>();
    const answered = new Set<string>();
    let failed = 0;
    results.forEach((r, i) => {
      if (r.status === "rejected") {
        failed++;
        log.warn({ err: r.reason instanceof Error ? r.reason.message : String(r.reason), ids: chunks[i]?.length }, "alert prices unavailable this check");
        return;
      }
      for (const id of chunks[i] ?? []) answered.add(id);
      for (const [id, entry] of Object.entries(r.value)) prices.set(canonicalId(id), entry);
    });
    return { prices, answered, calls: chunks.length, failed };
  };

  const fired = (a: Alert, from: string, price: string, t: number): AlertChange => {
    const payload: FiredPayload = {
      number: a.number, tokenId: a.tokenId, symbol: a.symbol, chain: a.chain, rule: a.rule, level: a.level, from, price, at: t,
    };
    const set: AlertChange["set"] = a.rule === "move"
      ? { anchorPrice: price, anchorAt: t, lastFiredAt: t, pausedAt: null }
      : { armed: false, lastFiredAt: t, pausedAt: null };
    return { alertId: a.id, anchorAt: a.anchorAt, set, notice: { kind: "fired", payload: JSON.stringify(payload) } };
  };

  /** One notice per chat for a token gone quiet, naming all its alerts there; the others only pause. */
  const pauses = (alerts: readonly Alert[], since: number): AlertChange[] => {
    const changes: AlertChange[] = [];
    for (const group of groupBy(alerts.filter((a) => a.pausedAt === undefined), (a) => `${a.platform}:${a.chatId}`).values()) {
      const first = group[0]!;
      const payload: PausedPayload = { numbers: group.map((a) => a.number), tokenId: first.tokenId, symbol: first.symbol, chain: first.chain, since };
      group.forEach((a, i) => {
        changes.push({
          alertId: a.id,
          anchorAt: a.anchorAt,
          set: { pausedAt: now() },
          ...(i === 0 ? { notice: { kind: "paused" as const, payload: JSON.stringify(payload) } } : {}),
        });
      });
    }
    return changes;
  };

  const run = async (): Promise<CheckReport> => {
    const t = now();
    const report: CheckReport = { leader: false, tokens: 0, calls: 0, failedCalls: 0, queued: 0 };
    if (!(await lead(t))) return report;
    report.leader = true;
    const alerts = (await opts.store.alerts.armedAlerts()).filter((a) => platforms.has(a.platform));
    const watched = await opts.store.watchlists.watchedTokenIds([...platforms]);
    const ids = [...new Set([...alerts.map((a) => a.tokenId), ...watched])];
    report.tokens = ids.length;
    if (ids.length === 0) return report;
    const { prices, answered, calls, failed } = await fetchPrices(ids);
    report.calls = calls;
    report.failedCalls = failed;
    if (await Promise.race([released, Promise.resolve("running")]) === "released") return report;
    const seenAt = now();
    const byToken = groupBy(alerts, (a) => a.tokenId);
    const before = new Map((await opts.store.alerts.sightings([...byToken.keys()])).map((s) => [s.tokenId, s]));
    const sightings: TokenSighting[] = [];
    const changes: AlertChange[] = [];
    for (const id of answered) {
      // Watched tokens ride in the same batches; only alerts need their last price remembered.
      const tokenAlerts = byToken.get(id);
      if (tokenAlerts === undefined) continue;
      const last = before.get(id);
      const price = priceOf(prices, id);
      if (price === undefined) {
        const missingSince = last?.missingSince ?? seenAt;
        sightings.push({ ...last, tokenId: id, missingSince });
        if (seenAt - missingSince >= MISSING_PAUSES_AFTER_MS) changes.push(...pauses(tokenAlerts, missingSince));
        continue;
      }
      sightings.push({ tokenId: id, price: price.text, seenAt });
      for (const a of tokenAlerts) {
        // An anchor stored before prices were read strictly ("Infinity", 1e-300) measures nothing:
        // the move is measured from here instead of firing at the first real price.
        if (a.rule === "move" && readPrice(a.anchorPrice) === undefined) {
          changes.push({ alertId: a.id, anchorAt: a.anchorAt, set: { anchorPrice: price.text, anchorAt: seenAt, pausedAt: null } });
          continue;
        }
        // The alert's own anchor when it is newer than the last sighting (made or re-armed since).
        const previous = last?.price !== undefined && last.seenAt !== undefined && last.seenAt > a.anchorAt ? last.price : a.anchorPrice;
        const from = readPrice(previous);
        if (from !== undefined && fires(a, from.value, price.value, seenAt, opts.cooldownMs)) changes.push(fired(a, a.rule === "move" ? a.anchorPrice : previous, price.text, seenAt));
        else if (a.pausedAt !== undefined) changes.push({ alertId: a.id, anchorAt: a.anchorAt, set: { pausedAt: null } });
      }
    }
    report.queued = await opts.store.alerts.commitCheck(sightings, changes, now());
    if (report.queued > 0) log.info({ queued: report.queued, tokens: ids.length, calls }, "alerts fired");
    return report;
  };

  return {
    holder,
    lead: () => lead(now()),
    check() {
      running ??= run().finally(() => (running = undefined));
      return running;
    },
    async release() {
      release();
      await running?.catch(() => undefined);
      await releaseAtStop(opts.store.subscriptions, LEASE, holder, log);
    },
  };
}
