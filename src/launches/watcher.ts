/**
 * The launch watcher: one pass a minute, only on the worker holding the digest poster's lease.
 * Each pass reads the `new` rank topic once for every chain, and per subscribed chain the chain's
 * trending list, uncached on the digest lane; it takes the tokens launched since
 * each chat subscribed in `launch_at` order, asks each one's contract report, and queues one row
 * per (chat, token): posted once whatever the watcher sees again. Honeypots and tokens whose
 * sale the report says is blocked are never queued. Past `perHour` posts in a chat's clock hour
 * a token is folded; the next hour one summary names them. Rows go out through the send protocol.
 */
import type { Logger } from "pino";
import { LRUCache } from "lru-cache";
import { createTask, type ScheduledTask } from "node-cron";
import type { CachedMarket } from "../cache/types.js";
import type { MarketApi } from "../market/api.js";
import { createSendProtocol, type SendSink } from "../delivery/protocol.js";
import type { PacedQueue } from "../digest/paced-queue.js";
import type { BotCore } from "../core/bot-core.js";
import { launchPayload, type LaunchPayload, type SummaryPayload } from "../core/posts/launch.js";
import { asking, newAsk } from "../market/ask.js";
import { isMarketError } from "../market/errors.js";
import { joinId } from "../market/ids.js";
import type { RiskReport, TokenV2 } from "../market/schemas.js";
import { DIGEST_LANE } from "../market/scheduler-lanes.js";
import { logTurnFailure } from "../store/errors.js";
import type { ChatKey, LaunchPost, LaunchStore, LaunchSubscription, Platform, SendState, SettingsStore, SubscriptionStore } from "../store/types.js";
import { releaseAtStop } from "../workers/lease-keeper.js";
import { LAUNCH_LEASE, launchKind } from "./kind.js";
import { saleBlocked } from "./held-back.js";

export interface LaunchWatcherOptions {
  launches: LaunchStore;
  /** Chat state to drop or move when a chat is gone or migrated. */
  chats: Pick<SettingsStore, "getSettings" | "forgetChat" | "moveChat">;
  /** Writes each post from its row, in the chat's language. */
  core: Pick<BotCore, "render">;
  /** Contract reports, cached: a token's report is read once for every chat and the /risk that follows. */
  market: Pick<CachedMarket, "riskReport">;
  /**
   * The lists new tokens are found in, uncached on the digest lane: the cache serves a list up
   * to twice its TTL (a minute) old while it refreshes, so a pass a minute would see a launch
   * two or three minutes late.
   */
  lists: Pick<MarketApi, "rankList" | "trending">;
  adapters: Partial<Record<Platform, SendSink>>;
  queues: Partial<Record<Platform, PacedQueue>>;
  /** The digest poster's holder name, under whose lease rows are claimed. */
  holder: string;
  /**
   * Whether this worker holds the digest poster's lease now (the poster keeps it); or, where no
   * poster runs (the console), the leases the watcher keeps it in itself at each pass.
   */
  lease: { leading: () => boolean } | { keep: Pick<SubscriptionStore, "acquireLease" | "releaseLease"> };
  perHour: number;
  logger: Logger;
  now?: () => number;
  /** Each recorded send, for the sends metric. */
  onSend?: (kind: string, platform: Platform, state: SendState) => void;
}

export interface LaunchWatcher {
  /** One pass: queue new tokens and summaries, start their sends; `done` resolves when they have an outcome. */
  tick(): Promise<{ queued: number; done: Promise<void> }>;
  start(): void;
  stop(): Promise<void>;
  /** Whether this watcher claims launches now: it leads, or holds the lease it keeps itself. */
  leading(): boolean;
}

const HOUR = 3_600_000;
/** The lease a watcher keeps itself lasts two passes: one missed pass does not lose it. */
const OWN_LEASE_MS = 120_000;
/** Finished rows are kept this long: a token seen again within it is not posted again. */
const KEEP_MS = 8 * 24 * HOUR;
/** Trending list rows asked per pass (the service's page maximum). */
const TRENDING_PAGE = 100;
/** The `new` topic's longest list. */
const NEW_LIMIT = 300;
/** New tokens whose sale the report showed blocked, remembered for this long (a report seldom changes that). */
const BLOCKED_TTL_MS = 6 * HOUR;
const BLOCKED_MAX = 5_000;

interface Candidate {
  token: TokenV2;
  /** When the list it came from was read (epoch ms). */
  readAt: number;
}

/** A list as read, with when its answer came. */
interface ListRead {
  tokens: TokenV2[];
  readAt: number;
}

/** A token row's payload; undefined for a summary or a payload that cannot be read. */
function tokenPayload(p: LaunchPost): LaunchPayload | undefined {
  if (p.kind !== "token") return undefined;
  try {
    const parsed = launchPayload.safeParse(JSON.parse(p.payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Rows by when they were queued, then by launch and token id (as the stores compare text): a
 * pass's tokens in the order they launched, its summary of the hours before (no launch) first.
 */
function inLaunchOrder(rows: readonly LaunchPost[]): { post: LaunchPost; payload: LaunchPayload | undefined }[] {
  const launch = (x: { payload: LaunchPayload | undefined }) => x.payload?.launchAt ?? Number.NEGATIVE_INFINITY;
  return rows
    .map((post) => ({ post, payload: tokenPayload(post) }))
    .sort((a, b) => {
      if (a.post.queuedAt !== b.post.queuedAt) return a.post.queuedAt - b.post.queuedAt;
      if (launch(a) !== launch(b)) return launch(a) < launch(b) ? -1 : 1;
      return a.post.tokenId < b.post.tokenId ? -1 : a.post.tokenId > b.post.tokenId ? 1 : 0;
    });
}

const num = (v: string | number | undefined): number | undefined => {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

export function createLaunchWatcher(opts: LaunchWatcherOptions): LaunchWatcher {
  const now = opts.now ?? Date.now;
  const log = opts.logger;
  const protocol = createSendProtocol({ queues: opts.queues, adapters: opts.adapters, logger: log, now, settings: opts.chats, ...(opts.onSend ? { onOutcome: opts.onSend } : {}) });
  const kind = launchKind(opts.launches, opts.chats, opts.holder);
  const inProgress = new Set<string>();
  const deliveries = new Set<Promise<void>>();
  let stopping = false;
  let task: ScheduledTask | undefined;
  let ticking: Promise<{ queued: number; done: Promise<void> }> | undefined;
  const blocked = new LRUCache<string, true>({ max: BLOCKED_MAX, ttl: BLOCKED_TTL_MS, perf: { now } });
  let held = false;
  const lease = opts.lease;
  const claiming = () => !stopping && ("leading" in lease ? lease.leading() : held);

  const readList = async (read: () => Promise<TokenV2[]>): Promise<ListRead> => {
    const tokens = await read();
    return { tokens, readAt: now() };
  };

  /** The chain's tokens from both lists, once each, oldest launch first, each with when its list was read. */
  const candidates = async (chain: string, ranked: Promise<ListRead>): Promise<Candidate[]> => {
    const lists = await Promise.all([ranked, readList(async () => (await opts.lists.trending({ chain, pageSize: TRENDING_PAGE })).tokens)]);
    const byId = new Map<string, Candidate>();
    for (const { tokens, readAt } of lists) {
      for (const token of tokens) {
        if (token.chain === chain && token.launch_at !== undefined) byId.set(joinId(token.token, token.chain), { token, readAt });
      }
    }
    return [...byId.values()].sort((a, b) => (a.token.launch_at ?? 0) - (b.token.launch_at ?? 0));
  };

  /**
   * The token's report; undefined when the service has none (posted as "not checked", never as
   * safe); "unread" when reading it failed, and the token waits for a later pass: a honeypot
   * whose report could not be read is not one without a report.
   */
  const report = async (tokenId: string): Promise<RiskReport | undefined | "unread"> => {
    try {
      return (await asking(newAsk(DIGEST_LANE, undefined, now), () => opts.market.riskReport(tokenId))).data;
    } catch (e) {
      if (isMarketError(e) && e.kind === "not_found") {
        log.info({ tokenId }, "no contract report for a new token");
        return undefined;
      }
      log.warn({ err: e instanceof Error ? e.message : String(e), tokenId }, "the contract report of a new token could not be read: trying again next pass");
      return "unread";
    }
  };

  const queueFor = async (sub: ChatKey, payload: LaunchPayload, hourStart: number, t: number): Promise<boolean> => {
    const used = await opts.launches.launchesCountedSince(sub, hourStart);
    const row = { platform: sub.platform, chatId: sub.chatId, tokenId: payload.tokenId, kind: "token" as const, chain: payload.chain, payload: JSON.stringify(payload) };
    return opts.launches.queueLaunchPost(row, used < opts.perHour ? "queued" : "folded", t);
  };

  const watchChain = async (chain: string, subs: LaunchSubscription[], ranked: Promise<ListRead>, hourStart: number, t: number): Promise<number> => {
    const since = Math.min(...subs.map((s) => s.createdAt));
    let queued = 0;
    for (const { token, readAt } of await candidates(chain, ranked)) {
      const launchedMs = (token.launch_at ?? 0) * 1000;
      if (launchedMs < since) continue;
      const liquidity = num(token.main_pair_tvl) ?? num(token.tvl);
      const wanting = subs.filter((s) => launchedMs >= s.createdAt && (s.minLiquidity === 0 || (liquidity ?? 0) >= s.minLiquidity));
      const tokenId = joinId(token.token, token.chain);
      // A token stays in the lists for days: a blocked sale is remembered rather than read again
      // every pass, and the report (10 units) is read for the chats that have not had it yet.
      if (wanting.length === 0 || blocked.has(tokenId)) continue;
      const had = await Promise.all(wanting.map((s) => opts.launches.hasLaunchPost(s, tokenId)));
      const chats = wanting.filter((_, i) => !had[i]);
      if (chats.length === 0) continue;
      const r = await report(tokenId);
      if (r === "unread") continue;
      if (saleBlocked(r)) {
        blocked.set(tokenId, true);
        log.info({ tokenId }, "a new token whose sale is blocked is not posted");
        continue;
      }
      const payload: LaunchPayload = {
        tokenId, chain, address: token.token, symbol: token.symbol ?? "?", name: token.name ?? token.symbol ?? "?",
        launchAt: token.launch_at ?? 0, readAt, liquidity, priceUsd: token.current_price_usd, report: r,
      };
      for (const s of chats) if (await queueFor(s, payload, hourStart, t)) queued++;
    }
    return queued;
  };

  /** One summary per chat for the tokens folded in hours gone by. */
  const summarise = async (hourStart: number, t: number): Promise<void> => {
    const byChat = new Map<string, LaunchPost[]>();
    for (const p of await opts.launches.foldedBefore(hourStart)) {
      const key = JSON.stringify([p.platform, p.chatId, p.chain]);
      byChat.set(key, [...(byChat.get(key) ?? []), p]);
    }
    for (const rows of byChat.values()) {
      const first = rows[0]!;
      const tokens = inLaunchOrder(rows).flatMap(({ payload: p }) =>
        p === undefined ? [] : [{ symbol: p.symbol, address: p.address, launchAt: p.launchAt, readAt: p.readAt, report: p.report }],
      );
      const hour = Math.floor(first.queuedAt / HOUR) * HOUR;
      // The hours the tokens were found in: more than one when passes were missed.
      const to = Math.floor(Math.max(...rows.map((r) => r.queuedAt)) / HOUR) * HOUR + HOUR;
      const summary: SummaryPayload = { chain: first.chain, max: opts.perHour, from: hour, to, tokens };
      await opts.launches.queueLaunchPost(
        { platform: first.platform, chatId: first.chatId, tokenId: `summary:${first.chain}:${hour}`, kind: "summary", chain: first.chain, payload: JSON.stringify(summary) },
        "queued",
        t,
      );
      await opts.launches.markSummarised(first, rows.map((r) => r.tokenId), t);
    }
  };

  /**
   * Writes the post, then puts it in its queue once the post before it (`before`) is in its
   * own, whatever each took to write: a chat reads the tokens in the order they launched.
   */
  const send = (p: LaunchPost, before: Promise<void>): { done: Promise<void>; entered: Promise<void> } | undefined => {
    const key = JSON.stringify([p.platform, p.chatId, p.tokenId]);
    if (!protocol.running(p.platform) || inProgress.has(key)) return undefined;
    inProgress.add(key);
    let enter!: () => void;
    const entered = new Promise<void>((resolve) => (enter = resolve));
    const d = (async () => {
      const reply = await opts.core.render({ platform: p.platform, chatId: p.chatId }, { kind: p.kind === "summary" ? "launch-summary" : "launch", record: p.payload });
      await before;
      if (reply.error !== undefined) {
        enter();
        log.error({ tokenId: p.tokenId }, "a launch post could not be read: dropped");
        await opts.launches.transitionLaunchPost(p, ["queued", "interrupted"], "failed", now(), "unreadable payload");
        return;
      }
      // `protocol.send` takes its place in the queue before its first wait: the next post may follow.
      const sending = protocol.send(kind, {
        item: p, platform: p.platform, chatId: p.chatId, deadline: p.queuedAt + HOUR, reply, claiming,
        unleased: () => log.warn("the digest lease ran out mid-send: launch posts wait for the next pass"),
        names: { tokenId: p.tokenId },
      });
      enter();
      await sending;
    })()
      .catch((e: unknown) => log.error({ err: e, tokenId: p.tokenId }, "launch post crashed"))
      .finally(() => {
        enter();
        inProgress.delete(key);
        deliveries.delete(d);
      });
    deliveries.add(d);
    return { done: d, entered };
  };

  const run = async (): Promise<{ queued: number; done: Promise<void> }> => {
    if ("keep" in lease && !stopping) held = await lease.keep.acquireLease(LAUNCH_LEASE, opts.holder, OWN_LEASE_MS, now());
    if (!claiming()) return { queued: 0, done: Promise.resolve() };
    const t = now();
    const hourStart = Math.floor(t / HOUR) * HOUR;
    await opts.launches.interruptLaunchPosts(t, opts.holder);
    await opts.launches.pruneLaunchPosts(t - KEEP_MS);
    await summarise(hourStart, t);
    let queued = 0;
    // One read of the `new` list for every chain, once a chain has subscribers.
    let ranked: Promise<ListRead> | undefined;
    for (const chain of await opts.launches.launchChains()) {
      const subs = (await opts.launches.launchSubscribersOn(chain)).filter((s) => protocol.running(s.platform));
      if (subs.length === 0) continue;
      ranked ??= readList(() => opts.lists.rankList({ topic: "new", limit: NEW_LIMIT }));
      try {
        queued += await watchChain(chain, subs, ranked, hourStart, t);
      } catch (e) {
        // The next pass reads the lists again; nothing was lost.
        log.warn({ err: e, chain }, "new launches could not be read");
      }
    }
    const started: Promise<void>[] = [];
    let before = Promise.resolve();
    for (const { post } of inLaunchOrder(await opts.launches.waitingLaunchPosts())) {
      const s = send(post, before);
      if (s === undefined) continue;
      started.push(s.done);
      before = s.entered;
    }
    return { queued, done: Promise.all(started).then(() => undefined) };
  };

  return {
    tick() {
      ticking ??= run().finally(() => (ticking = undefined));
      return ticking;
    },
    start() {
      const pass = () => this.tick().catch((e: unknown) => logTurnFailure(log, e, "launch pass failed"));
      // A pass at once, not at the next whole minute: a watcher that keeps its own lease says so
      // from the start, and what a restart left unsent goes out.
      void pass();
      task = createTask("0 * * * * *", pass, {
        name: "launch-watcher",
        noOverlap: true,
        suppressMissedWarning: true,
      });
      void task.start();
    },
    leading: claiming,
    async stop() {
      stopping = true;
      await task?.destroy();
      await ticking;
      await Promise.all([...deliveries]);
      if ("keep" in lease && held) {
        held = false;
        await releaseAtStop(lease.keep, LAUNCH_LEASE, opts.holder, log);
      }
    },
  };
}
