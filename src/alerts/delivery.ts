/**
 * Delivers recorded firings through the platforms' paced queues (the digest's: one pace per
 * platform however many kinds of post), by the send protocol (src/delivery/protocol.ts). Every
 * worker delivers, each under its heartbeat lease (senders.ts). A firing is claimed (→
 * `sending`, under this worker's name, only while its heartbeat holds) after every wait of its
 * send, so that the request leaves right after the claim commits. A worker stopped or killed
 * before a claim leaves the firing queued for any other; one killed after it, and once its
 * heartbeat has run out another marks the firing `interrupted` and sends it once more
 * (recorded `resent`). A worker stalled past its heartbeat claims nothing more until it renews
 * it; its send in flight is recorded when it ends, over `interrupted`, unless another has
 * resent it meanwhile.
 */
import type { Logger } from "pino";
import type { PacedQueue } from "../digest/paced-queue.js";
import { createSendProtocol, type SendKind, type SendSink } from "../delivery/protocol.js";
import type { AlertFiring, AlertStore, FiringState, Platform, SettingsStore, SubscriptionStore } from "../store/types.js";
import type { BotCore } from "../core/bot-core.js";
import { goneSenders, HEARTBEAT_PREFIX } from "./senders.js";
import { releaseAtStop } from "../workers/lease-keeper.js";

/** What the deliverer needs of an adapter: `prepareSend`, when it has one, runs before the claim (adapters/types.ts). */
export type AlertSink = SendSink;

export interface DeliveryOptions {
  alerts: AlertStore;
  /** Chat state to drop or move when a chat is gone or migrated. */
  chats: Pick<SettingsStore, "getSettings" | "forgetChat" | "moveChat">;
  /** Writes each firing's message from its record, in the chat's language. */
  core: Pick<BotCore, "render">;
  adapters: Partial<Record<Platform, AlertSink>>;
  /** Where this worker's heartbeat lease lives (the store's leases). */
  leases: Pick<SubscriptionStore, "acquireLease" | "releaseLease">;
  /** This worker's name on the firings it claims and in its heartbeat (`host:pid:random`). */
  sender: string;
  /** How long the heartbeat lasts without renewal, ms. */
  heartbeatTtlMs: number;
  queues: Partial<Record<Platform, PacedQueue>>;
  logger: Logger;
  now?: () => number;
  /** A firing not sent within this long is dropped as stale news. Default 1 hour. */
  maxAgeMs?: number;
  /** Each firing's final state, and how long after it fired it got there (metrics, the benchmark). */
  onOutcome?: (platform: Platform, state: FiringState, afterMs: number) => void;
  /** Each send's recorded outcome, by kind (metrics: sends per outcome). */
  onSend?: (kind: string, platform: Platform, state: FiringState) => void;
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
  const protocol = createSendProtocol({ queues: opts.queues, adapters: opts.adapters, logger: log, now, settings: opts.chats, onOutcome: opts.onSend });

  const deadline = (f: AlertFiring): number => f.firedAt + maxAge;

  /** Firings as rows of the send protocol: claimed under this worker's heartbeat. */
  const firings: SendKind<AlertFiring> = {
    name: "alert",
    // A price that crossed a line is news now; a group's backlog of buy posts or a digest can wait.
    urgent: true,
    chats: opts.chats,
    rows: {
      claim: (f, at) => opts.alerts.claimFiring(f.id, opts.sender, heartbeatLease, at),
      settle: (f, to, at, detail) => opts.alerts.settleFiring(f.id, opts.sender, to, at, detail),
      expire: (f, at, detail) => opts.alerts.transitionFiring(f.id, ["queued", "interrupted"], "expired", at, detail),
    },
    recorded: (f, state) => opts.onOutcome?.(f.platform, state, now() - f.firedAt),
  };

  const deliver = (f: AlertFiring): Promise<void> | undefined => {
    if (!protocol.running(f.platform) || inProgress.has(f.id)) return undefined;
    inProgress.add(f.id);
    const p = (async () => {
      // Written in the language the chat has now, as the digest is.
      const reply = await opts.core.render({ platform: f.platform, chatId: f.chatId }, { kind: f.kind === "fired" ? "alert-fired" : "alert-paused", record: f.payload });
      if (reply.error !== undefined) {
        log.error({ firing: f.id }, "an alert firing could not be read: dropped");
        if (await opts.alerts.transitionFiring(f.id, ["queued", "interrupted"], "failed", now(), "unreadable payload")) firings.recorded?.(f, "failed");
        return;
      }
      await protocol.send(firings, {
        item: f,
        platform: f.platform,
        chatId: f.chatId,
        deadline: deadline(f),
        reply,
        claiming,
        unleased: () => {
          if (!holding) return;
          // Stalled past the heartbeat: another worker may have given this one up already.
          holding = false;
          log.warn("the alert heartbeat ran out mid-delivery: this worker claims nothing more until it renews it");
        },
        names: { firing: f.id },
      });
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
      if (n > 0) log.warn({ firings: n, senders: gone }, "alert messages cut off mid-send by a crash are sent once more");
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
