/**
 * Delivers recorded firings through the platforms' paced queues (the digest's: one pace per
 * platform however many kinds of post). Every worker delivers, each under its heartbeat lease
 * (senders.ts). A firing is claimed (`queued` → `sending`, under this worker's name, only while
 * its heartbeat holds) after every wait of its send — pace, chat guard, shared REST rate,
 * rendering (`prepareSend`) — so that the request leaves right after the claim commits. A
 * worker stopped or killed before a claim leaves the firing queued for any other; one killed
 * after it has sent, and once its heartbeat has run out another marks the firing `interrupted`
 * and never sends it again. A worker stalled past its heartbeat claims nothing more until it
 * renews it; its send in flight is recorded when it ends, over `interrupted`. Only a kill between
 * the claim's commit and the request's bytes (no await lies there) loses an alert; nothing can
 * send one twice.
 */
import type { Logger } from "pino";
import type { PreparedSend, SendOutcome } from "../adapters/types.js";
import type { Reply } from "../core/reply.js";
import type { DeliveryResult, PacedQueue } from "../digest/paced-queue.js";
import type { AlertFiring, AlertStore, FiringState, Platform, SettingsStore, SubscriptionStore } from "../store/types.js";
import { postLanguage, sourceIn } from "../i18n/index.js";
import { firingReply } from "./message.js";
import { goneSenders, HEARTBEAT_PREFIX } from "./senders.js";
import { releaseAtStop } from "../workers/lease-keeper.js";

/** What the deliverer needs of an adapter: `prepareSend`, when it has one, runs before the claim (adapters/types.ts). */
export interface AlertSink {
  send(chatId: string, reply: Reply): Promise<SendOutcome>;
  prepareSend?(chatId: string, reply: Reply): Promise<PreparedSend>;
}

export interface DeliveryOptions {
  alerts: AlertStore;
  /** Chat state to drop or move when a chat is gone or migrated, and its language. */
  chats: Pick<SettingsStore, "forgetChat" | "moveChat" | "getSettings">;
  adapters: Partial<Record<Platform, AlertSink>>;
  /** Where this worker's heartbeat lease lives (the store's leases). */
  leases: Pick<SubscriptionStore, "acquireLease" | "releaseLease">;
  /** This worker's name on the firings it claims and in its heartbeat (`host:pid:random`). */
  sender: string;
  /** How long the heartbeat lasts without renewal, ms. */
  heartbeatTtlMs: number;
  queues: Partial<Record<Platform, PacedQueue>>;
  /** Footer source label. */
  source: string;
  logger: Logger;
  now?: () => number;
  /** A firing not sent within this long is dropped as stale news. Default 1 hour. */
  maxAgeMs?: number;
  /** Each firing's final state, and how long after it fired it got there (metrics, the benchmark). */
  onOutcome?: (platform: Platform, state: FiringState, afterMs: number) => void;
}

export interface AlertDelivery {
  /** Takes or renews this worker's heartbeat; false when the store would not have it. Claims are made only under it. */
  heartbeat(): Promise<boolean>;
  /** Whether this worker claims firings: its heartbeat was taken and no claim has found it run out since. */
  claiming(): boolean;
  /** Firings cut off mid-send by a worker that is gone become `interrupted`; returns how many. */
  recover(): Promise<number>;
  /** Claims nothing more: firings not claimed yet stay queued (at stop, before the queues stop). */
  stop(): void;
  /** Drops the heartbeat (at stop, after the last send settled). */
  release(): Promise<void>;
  /** Starts delivering every queued firing not under way yet; `done` resolves when they all have an outcome. */
  flush(): Promise<{ started: number; done: Promise<void> }>;
  /** Resolves when the deliveries started so far have an outcome (the queues must be stopping or draining). */
  settled(): Promise<void>;
}

const HOUR = 3_600_000;

export function createAlertDelivery(opts: DeliveryOptions): AlertDelivery {
  const now = opts.now ?? Date.now;
  const maxAge = opts.maxAgeMs ?? HOUR;
  const log = opts.logger;
  const heartbeatLease = HEARTBEAT_PREFIX + opts.sender;
  const inProgress = new Set<number>();
  const deliveries = new Set<Promise<void>>();
  /** The heartbeat is taken and no claim has found it run out since. */
  let holding = false;
  let stopping = false;
  const claiming = (): boolean => holding && !stopping;

  const record = async (f: AlertFiring, from: FiringState[], to: FiringState, detail?: string) => {
    if (await opts.alerts.transitionFiring(f.id, from, to, now(), detail)) opts.onOutcome?.(f.platform, to, now() - f.firedAt);
  };

  /** The outcome of a firing this worker claimed, even if another has marked it interrupted meanwhile. */
  const settleRow = async (f: AlertFiring, to: FiringState) => {
    if (await opts.alerts.settleFiring(f.id, opts.sender, to, now())) opts.onOutcome?.(f.platform, to, now() - f.firedAt);
  };

  /** Applies what the platform said; returns the firing's final state. */
  const settle = async (f: AlertFiring, out: SendOutcome, reply: Reply): Promise<FiringState> => {
    const chat = { platform: f.platform, chatId: f.chatId };
    switch (out.kind) {
      case "delivered":
        return "delivered";
      case "gone":
        log.info({ platform: f.platform, chatId: f.chatId, reason: out.reason }, "alert target gone: dropping the chat");
        await opts.chats.forgetChat(chat);
        return "gone";
      case "moved": {
        log.info({ platform: f.platform, from: f.chatId, to: out.toChatId }, "chat migrated: its alerts follow it");
        await opts.chats.moveChat(chat, out.toChatId);
        const queue = opts.queues[f.platform];
        const adapter = opts.adapters[f.platform];
        if (!queue || !adapter) return "moved";
        const again = await queue.push({ chatId: out.toChatId, deadline: f.firedAt + maxAge, send: () => adapter.send(out.toChatId, reply) });
        return again.kind === "delivered" ? "delivered" : "moved";
      }
      case "forbidden":
        log.warn({ platform: f.platform, chatId: f.chatId, reason: out.reason }, "alert target forbids posting");
        return "forbidden";
      case "retry":
      case "failed":
        log.warn({ platform: f.platform, chatId: f.chatId, outcome: out }, "alert delivery failed");
        return "failed";
    }
  };

  const deliver = (f: AlertFiring): Promise<void> | undefined => {
    const queue = opts.queues[f.platform];
    const adapter = opts.adapters[f.platform];
    if (!queue || !adapter || inProgress.has(f.id)) return undefined;
    inProgress.add(f.id);
    let claimed = false;
    const p = (async () => {
      // Written in the language the chat has now, as the digest is.
      const i18n = await postLanguage(opts.chats, { platform: f.platform, chatId: f.chatId });
      const reply = firingReply(f, sourceIn(opts.source, i18n), i18n);
      if (reply === undefined) {
        log.error({ firing: f.id }, "an alert firing could not be read: dropped");
        return record(f, ["queued"], "failed", "unreadable payload");
      }
      const result: DeliveryResult = await queue.push({
        chatId: f.chatId,
        deadline: f.firedAt + maxAge,
        live: () => claimed || claiming(),
        send: async () => {
          // Every wait of the send comes before the claim (the pace before this call, the rest
          // in prepareSend), so that nothing but the claim's own round trip stands between the
          // firing becoming `sending` and the request leaving: a firing claimed but not sent
          // when the worker dies is an alert lost.
          const prepared: PreparedSend = adapter.prepareSend
            ? await adapter.prepareSend(f.chatId, reply)
            : { send: () => adapter.send(f.chatId, reply) };
          if (!claimed) {
            // Claimed once; a retry after a 429 sends under the same claim.
            if (!claiming()) return { kind: "delivered" };
            const claim = await opts.alerts.claimFiring(f.id, opts.sender, heartbeatLease, now());
            if (claim === "unleased" && holding) {
              // Stalled past the heartbeat: another worker may have given this one up already.
              holding = false;
              log.warn("the alert heartbeat ran out mid-delivery: this worker claims nothing more until it renews it");
            }
            if (claim !== "claimed") return { kind: "delivered" };
            claimed = true;
          }
          return "outcome" in prepared ? prepared.outcome : prepared.send();
        },
      });
      if (result.kind === "stopped") return;
      // A firing that only waited past its hour is still queued; one whose 429 outlasted it was claimed.
      if (result.kind === "expired") return claimed ? settleRow(f, "expired") : record(f, ["queued"], "expired");
      if (!claimed) return;
      const state = await settle(f, result, reply);
      // A chat that is gone took its firings with it: there is no row left to record on.
      if (state === "gone") opts.onOutcome?.(f.platform, state, now() - f.firedAt);
      else await settleRow(f, state);
    })()
      .catch((e: unknown) => log.error({ err: e, firing: f.id }, "alert delivery crashed"))
      .finally(() => {
        inProgress.delete(f.id);
        deliveries.delete(p);
      });
    deliveries.add(p);
    return p;
  };

  return {
    async heartbeat() {
      const held = await opts.leases.acquireLease(heartbeatLease, opts.sender, opts.heartbeatTtlMs, now());
      holding = held;
      return held;
    },
    claiming,
    async recover() {
      const senders = await opts.alerts.sendersInFlight();
      if (senders.every((s) => s === opts.sender)) return 0;
      const gone = await goneSenders(opts.leases, senders, opts.sender, now());
      if (gone.length === 0) return 0;
      const n = await opts.alerts.interruptFirings(now(), gone);
      if (n > 0) log.warn({ firings: n, senders: gone }, "alert messages cut off mid-send by a crash were not resent: each reached its chat at most once");
      return n;
    },
    stop() {
      stopping = true;
    },
    async release() {
      holding = false;
      await releaseAtStop(opts.leases, heartbeatLease, opts.sender, log);
    },
    async flush() {
      const started: Promise<void>[] = [];
      // Without its heartbeat this worker would only prepare sends it may not claim.
      if (!claiming()) return { started: 0, done: Promise.resolve() };
      for (const f of await opts.alerts.queuedFirings()) {
        const p = deliver(f);
        if (p) started.push(p);
      }
      return { started: started.length, done: Promise.all(started).then(() => undefined) };
    },
    async settled() {
      await Promise.all([...deliveries]);
    },
  };
}
