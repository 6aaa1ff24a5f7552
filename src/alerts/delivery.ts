/**
 * Delivers recorded firings through the platforms' paced queues (the digest's: one pace per
 * platform however many kinds of post). Every worker delivers: a firing is claimed (`queued` →
 * `sending`, under this worker's name) right before its first attempt, so a crash mid-send leaves
 * it `sending`, which is marked `interrupted` and never resent once its sender is known to be gone
 * (senders.ts); one still `queued` is sent by whichever worker claims it first.
 */
import type { Logger } from "pino";
import type { SendOutcome } from "../adapters/types.js";
import type { Reply } from "../core/reply.js";
import type { DeliveryResult, PacedQueue } from "../digest/paced-queue.js";
import type { AlertFiring, AlertStore, FiringState, Platform, SettingsStore, SubscriptionStore } from "../store/types.js";
import { postLanguage, sourceIn } from "../i18n/index.js";
import { firingReply } from "./message.js";
import { goneSenders, HEARTBEAT_PREFIX } from "./senders.js";

/** What the deliverer needs of an adapter. */
export interface AlertSink {
  send(chatId: string, reply: Reply): Promise<SendOutcome>;
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
  /** Takes or renews this worker's heartbeat; false when the store would not have it. */
  heartbeat(): Promise<boolean>;
  /** Firings cut off mid-send by a worker that is gone become `interrupted`; returns how many. */
  recover(): Promise<number>;
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
  const inProgress = new Set<number>();
  const deliveries = new Set<Promise<void>>();

  const record = async (f: AlertFiring, from: FiringState[], to: FiringState, detail?: string) => {
    if (await opts.alerts.transitionFiring(f.id, from, to, now(), detail)) opts.onOutcome?.(f.platform, to, now() - f.firedAt);
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
        send: async () => {
          // Claimed at the first attempt only; a retry after a 429 sends again under the same claim.
          if (!claimed) claimed = await opts.alerts.claimFiring(f.id, opts.sender, now());
          if (!claimed) return { kind: "delivered" };
          return adapter.send(f.chatId, reply);
        },
      });
      if (result.kind === "stopped") return;
      if (result.kind === "expired") return record(f, [claimed ? "sending" : "queued"], "expired");
      if (!claimed) return;
      const state = await settle(f, result, reply);
      // A chat that is gone took its firings with it: there is no row left to record on.
      if (state === "gone") opts.onOutcome?.(f.platform, state, now() - f.firedAt);
      else await record(f, ["sending"], state);
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
    heartbeat() {
      return opts.leases.acquireLease(HEARTBEAT_PREFIX + opts.sender, opts.sender, opts.heartbeatTtlMs, now());
    },
    async recover() {
      const senders = await opts.alerts.sendersInFlight();
      if (senders.every((s) => s === opts.sender)) return 0;
      const gone = await goneSenders(opts.leases, senders, opts.sender, now());
      if (gone.length === 0) return 0;
      const n = await opts.alerts.interruptFirings(now(), gone);
      if (n > 0) log.warn({ firings: n, senders: gone }, "alert messages cut off mid-send by a crash were not resent: each reached its chat at most once");
      return n;
    },
    async release() {
      await opts.leases.releaseLease(HEARTBEAT_PREFIX + opts.sender, opts.sender);
    },
    async flush() {
      const started: Promise<void>[] = [];
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
