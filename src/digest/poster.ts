/**
 * The digest poster. A tick every 15 s (node-cron) checks the few distinct schedules, queues a
 * (subscription, slot) row for each due subscription, asks the core for each post — the
 * chain's `/trending` reply as that chat would get it, its market calls on the digest lane
 * through the shared cache, each row marked with its movement since the subscription's previous
 * digest — and delivers through each platform's paced queue. The poster renders nothing itself.
 *
 * Once per slot comes from the rows, a lease and the send protocol (src/delivery/protocol.ts).
 * One poster leads per database; it claims a row (queued → sending, under its name, only while
 * its lease holds) after every check and wait of the send — pace, chat guard, rendering — so
 * that the request leaves right after the claim commits. A poster killed before a claim leaves
 * the row queued for the next leader; one killed after it, and whoever leads next marks the row
 * interrupted and sends it once more (recorded `resent`). Only a digest Telegram accepted in
 * the instant before the kill can reach its chat twice; none is lost.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { leadOrTakeOver } from "../workers/local-holder.js";
import { createTask, type ScheduledTask } from "node-cron";
import type { Logger } from "pino";
import type { PlatformAdapter } from "../adapters/types.js";
import type { BotCore } from "../core/bot-core.js";
import type { Reply } from "../core/reply.js";
import { logTurnFailure } from "../store/errors.js";
import type { DeliveryState, PendingDelivery, Platform, SettingsStore, Subscription, SubscriptionStore } from "../store/types.js";
import type { PacedQueue } from "./paced-queue.js";
import { createSendProtocol, type SendKind } from "../delivery/protocol.js";
import { latestSlot } from "./schedule.js";
import { releaseAtStop } from "../workers/lease-keeper.js";

export interface PosterOptions {
  subscriptions: SubscriptionStore;
  /** Chat state to drop or move when a chat is gone or migrated. */
  chats: SettingsStore;
  /** Writes each post: the same reply the command gives when typed in that chat; and the pause notice. */
  core: Pick<BotCore, "post" | "render">;
  adapters: Partial<Record<Platform, PlatformAdapter>>;
  queues: Partial<Record<Platform, PacedQueue>>;
  logger: Logger;
  now?: () => number;
  /** Identifies this process in the lease. Default `host:pid:random`. */
  holder?: string;
  /**
   * How long the lease lasts without renewal. Default 45 s: ticks renew it every 15 s, and a
   * worker that outlives a dead leader takes the slot over within a minute.
   */
  leaseTtlMs?: number;
  /** Each delivery's outcome (metrics). */
  onOutcome?: (platform: Platform, outcome: DeliveryState) => void;
  /** Each send's recorded outcome, by kind (metrics: sends per outcome). */
  onSend?: (kind: string, platform: Platform, state: DeliveryState) => void;
}

export interface TickReport {
  leader: boolean;
  queued: number;
  /** Chains whose digests were asked of the core this tick (the cache fetches each list once). */
  trendingCalls: string[];
  /** Resolves when every delivery started by this tick has an outcome. */
  done: Promise<void>;
}

export interface Poster {
  /** One pass: plan due slots and start their deliveries. Ticks do not overlap. */
  tick(): Promise<TickReport>;
  /** Ticks every minute (and once now, to catch up on slots missed while down). */
  start(): void;
  /** Stop taking new deliveries, finish those in flight, keep the rest queued for the next start. */
  stop(): Promise<void>;
  /** Whether this worker held the poster's lease at its last tick (for /readyz). */
  leading(): boolean;
}

const LEASE = "digest-poster";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How long finished delivery rows are kept as the record of what was posted. */
const KEEP_DELIVERIES_MS = 7 * 24 * HOUR;

export function createPoster(opts: PosterOptions): Poster {
  const now = opts.now ?? Date.now;
  const holder = opts.holder ?? `${hostname()}:${process.pid}:${randomUUID()}`;
  const leaseTtl = opts.leaseTtlMs ?? 45_000;
  const log = opts.logger;
  let lastPlanned: number | undefined;
  let lastPruned: number | undefined;
  let leading = false;
  /** Counts the times this poster took the lease: a job claims only in the term it was queued in. */
  let term = 0;
  let stopping = false;
  let task: ScheduledTask | undefined;
  let ticking: Promise<TickReport> | undefined;
  const inProgress = new Set<string>();
  const deliveries = new Set<Promise<void>>();
  const protocol = createSendProtocol({ queues: opts.queues, adapters: opts.adapters, logger: log, now, settings: opts.chats, onOutcome: opts.onSend });

  /** Whether jobs of leadership term `t` may still claim rows. */
  const current = (t: number): boolean => leading && !stopping && term === t;

  /** Platforms the poster can post to: the others' subscriptions wait, costing no trending call. */
  const running = (p: Platform): boolean => protocol.running(p);

  /** The next digest's movement is counted from the last one the chat got. */
  const keepRanking = async (s: Subscription, post: Reply): Promise<void> => {
    if (post.ranking !== undefined) await opts.subscriptions.setLastRanking(s.id, post.ranking);
  };

  const deadline = (d: PendingDelivery): number => d.slot + d.subscription.intervalMinutes * MINUTE;

  /** Digest deliveries as rows of the send protocol: claimed under this poster's lease. */
  const digests: SendKind<PendingDelivery> = {
    name: "digest",
    chats: opts.chats,
    rows: {
      claim: (d, at) => opts.subscriptions.claimDelivery(d.subscription.id, d.slot, holder, LEASE, at),
      settle: (d, to, at, detail) => opts.subscriptions.settleDelivery(d.subscription.id, d.slot, holder, to, at, detail),
      expire: (d, at, detail) => opts.subscriptions.transitionDelivery(d.subscription.id, d.slot, ["queued", "interrupted"], "expired", at, detail),
    },
    async after(d, state, out, post) {
      const s = d.subscription;
      if (state === "delivered" || state === "resent") await keepRanking(s, post.reply);
      if (out.kind === "forbidden") {
        await opts.subscriptions.pauseSubscription(s.id, out.reason);
        const notice = await opts.core.render({ platform: s.platform, chatId: s.chatId }, { kind: "digest-paused", chain: s.chain });
        await protocol.paced(s.platform, s.chatId, deadline(d), notice);
      }
    },
    recorded: (d, state) => opts.onOutcome?.(d.subscription.platform, state),
  };

  /** Starts one delivery; undefined when it is already under way or its platform is off. */
  const deliver = (d: PendingDelivery, post: Reply, myTerm: number): Promise<void> | undefined => {
    const s = d.subscription;
    const key = `${s.id}:${d.slot}`;
    if (!running(s.platform) || inProgress.has(key)) return undefined;
    inProgress.add(key);
    const p = protocol
      .send(digests, {
        item: d,
        platform: s.platform,
        chatId: s.chatId,
        deadline: deadline(d),
        reply: post,
        claiming: () => current(myTerm),
        unleased: () => {
          if (term === myTerm && leading) {
            // Stalled past the lease (another worker may lead now): claim nothing more.
            leading = false;
            log.warn("the digest lease ran out mid-slot: this worker stops claiming deliveries");
          }
        },
        names: { subscription: s.id, slot: d.slot },
      })
      .then(() => undefined)
      .catch((e: unknown) => log.error({ err: e, subscription: s.id, slot: d.slot }, "digest delivery crashed"))
      .finally(() => {
        inProgress.delete(key);
        deliveries.delete(p);
      });
    deliveries.add(p);
    return p;
  };

  // A bot restarted after a crash resumes its slot at once instead of waiting for the lease to expire.
  const lead = (t: number): Promise<boolean> => leadOrTakeOver(opts.subscriptions, LEASE, holder, leaseTtl, t, "poster", log);

  const plan = async (t: number): Promise<number> => {
    let queued = 0;
    for (const sch of await opts.subscriptions.activeSchedules()) {
      // A slot missed while down is posted only within half its interval.
      const half = (sch.maxIntervalMinutes * MINUTE) / 2;
      const from = Math.max(lastPlanned ?? -Infinity, t - half);
      const slot = latestSlot(sch, from, t);
      if (slot === undefined) continue;
      const due = (await opts.subscriptions.subscriptionsOn(sch.cron, sch.timezone)).filter(
        (s) => running(s.platform) && s.createdAt <= slot && t - slot <= (s.intervalMinutes * MINUTE) / 2,
      );
      queued += await opts.subscriptions.queueDeliveries(slot, due.map((s) => s.id), t);
    }
    lastPlanned = t;
    return queued;
  };

  const run = async (): Promise<TickReport> => {
    const t = now();
    const report: TickReport = { leader: false, queued: 0, trendingCalls: [], done: Promise.resolve() };
    const was = leading;
    leading = !stopping && (await lead(t));
    if (!leading) return report;
    if (!was) term++;
    report.leader = true;
    // At every tick, not once per process: a worker that takes the lease back later must still
    // give up the rows of a leader that died in between. Its own rows in flight stay its own.
    const n = await opts.subscriptions.interruptSending(t, holder);
    if (n > 0) log.warn({ rows: n }, "digest deliveries cut off by a crash or a stalled poster are sent once more");
    if (lastPruned === undefined || t - lastPruned >= HOUR) {
      const n = await opts.subscriptions.pruneDeliveries(t - KEEP_DELIVERIES_MS);
      if (n > 0) log.info({ rows: n }, "pruned finished digest deliveries older than a week");
      lastPruned = t;
    }
    report.queued = await plan(t);
    const byChain = new Map<string, PendingDelivery[]>();
    for (const d of await opts.subscriptions.queuedDeliveries()) {
      if (inProgress.has(`${d.subscription.id}:${d.slot}`)) continue;
      if (t > deadline(d)) {
        if (await digests.rows.expire(d, t)) opts.onOutcome?.(d.subscription.platform, "expired");
        continue;
      }
      if (!running(d.subscription.platform)) continue;
      const list = byChain.get(d.subscription.chain) ?? [];
      list.push(d);
      byChain.set(d.subscription.chain, list);
    }
    const started: Promise<void>[] = [];
    for (const [chain, list] of byChain) {
      report.trendingCalls.push(chain);
      for (const d of list) {
        const s = d.subscription;
        // The digest is `/trending <chain> 1 <top N>` as this chat would read it; a first one has no movement to show.
        const previousRanking = s.lastRanking.length > 0 ? s.lastRanking : undefined;
        const post = await opts.core.post({ platform: s.platform, chatId: s.chatId }, "trending", [chain, "1", String(s.topN)], { previousRanking });
        if (post.error !== undefined) {
          // Left queued: the next tick tries again until the slot's interval has passed.
          log.warn({ chain, answer: post.title }, "trending digest unavailable");
          break;
        }
        const p = deliver(d, post, term);
        if (p) started.push(p);
      }
    }
    report.done = Promise.all(started).then(() => undefined);
    return report;
  };

  return {
    tick() {
      if (!ticking) ticking = run().finally(() => (ticking = undefined));
      return ticking;
    },
    start() {
      void this.tick().catch((e: unknown) => logTurnFailure(log, e, "digest tick failed"));
      // Every 15 s, so that another worker takes over a dead leader's slot within a minute;
      // `noOverlap` skips a tick while the previous one still runs, and a tick missed in a stall
      // is made up by the next, which plans from the last one that ran.
      task = createTask("*/15 * * * * *", () => this.tick().catch((e: unknown) => logTurnFailure(log, e, "digest tick failed")), {
        name: "digest-poster",
        noOverlap: true,
        suppressMissedWarning: true,
        logger: { info: (m) => log.debug(m), warn: (m) => log.warn(m), error: (m, e) => log.error({ err: e ?? m }, "digest tick scheduler"), debug: (m) => log.debug(m) },
      });
      void task.start();
    },
    async stop() {
      stopping = true;
      await task?.destroy();
      await ticking;
      await Promise.all(Object.values(opts.queues).map((q) => q?.stop()));
      await Promise.all([...deliveries]);
      await releaseAtStop(opts.subscriptions, LEASE, holder, log);
      leading = false;
    },
    leading: () => leading,
  };
}
