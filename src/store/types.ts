/**
 * The bot's state behind an interface: SQLite today, PostgreSQL later. Every method is async
 * so that a networked implementation fits without changing its callers.
 */

export type Platform = "telegram" | "discord" | "console";

/** A chat: a Telegram chat id, a Discord channel id (guild in `guildId`), or the console. */
export interface ChatKey {
  platform: Platform;
  chatId: string;
}

export interface ChatSettings {
  /** Chain used when a command names none. */
  defaultChain?: string;
  /** Auto-detect pasted addresses; undefined = the platform's default (on in private chats). */
  autodetect?: boolean;
  /** IANA time zone for "daily HH:MM" schedules. Default "UTC". */
  timezone: string;
}

export interface SettingsStore {
  getSettings(chat: ChatKey): Promise<ChatSettings>;
  /** Merges `patch` into the chat's settings and returns the result. */
  updateSettings(chat: ChatKey, patch: Partial<ChatSettings>): Promise<ChatSettings>;
  /** The bot was removed: drop everything about the chat. */
  forgetChat(chat: ChatKey): Promise<void>;
  /** A Discord server the bot left: drop every channel of it. */
  forgetGuild(guildId: string): Promise<void>;
  /** Remember which Discord server a channel belongs to, for `forgetGuild`. */
  noteGuild(chat: ChatKey, guildId: string): Promise<void>;
  /** A Telegram group became a supergroup: move its state to the new id. */
  moveChat(from: ChatKey, toChatId: string): Promise<void>;
}

export interface Store extends SettingsStore {
  /** The digest's subscriptions, deliveries and leases, on the same database. */
  readonly subscriptions: SubscriptionStore;
  isOpen(): boolean;
  close(): Promise<void>;
}

/** A chat's subscription to a chain's trending digest. */
export interface Subscription {
  id: number;
  platform: Platform;
  chatId: string;
  chain: string;
  /** 5-field cron expression read in `timezone`. */
  cron: string;
  timezone: string;
  /** What the admin typed, normalised ("every 1h"). */
  label: string;
  intervalMinutes: number;
  topN: number;
  /** Set when the bot may not post here; the poster skips it until it is subscribed again. */
  pausedReason?: string;
  /** Token ids of the previous digest, best first: the basis of the ▲/▼/new markers. */
  lastRanking: string[];
  createdAt: number;
}

export type NewSubscription = Omit<Subscription, "id" | "pausedReason" | "lastRanking" | "createdAt">;

/**
 * Where one (subscription, slot) stands. `queued` → `sending` → an outcome. A row left in
 * `sending` by a crash becomes `interrupted` and is never sent again: at most once.
 */
export type DeliveryState =
  | "queued" | "sending" | "delivered" | "gone" | "moved" | "forbidden" | "failed" | "expired" | "interrupted";

export interface PendingDelivery {
  subscription: Subscription;
  /** Slot start, epoch ms (a minute boundary). */
  slot: number;
}

export interface SubscriptionStore {
  /** Adds, or replaces the schedule of, the chat's subscription to `chain`; clears a pause. */
  upsertSubscription(s: NewSubscription, now: number): Promise<Subscription>;
  /** Removes the chat's subscription to `chain`, or all of them; returns how many. */
  removeSubscriptions(chat: ChatKey, chain: string | "all"): Promise<number>;
  listSubscriptions(chat: ChatKey): Promise<Subscription[]>;
  /** Distinct (cron, timezone) pairs of active subscriptions, with their longest interval. */
  activeSchedules(): Promise<{ cron: string; timezone: string; maxIntervalMinutes: number }[]>;
  /** Active subscriptions on one schedule. */
  subscriptionsOn(cron: string, timezone: string): Promise<Subscription[]>;
  /** Queues (subscription, slot) rows that do not exist yet; returns how many were new. */
  queueDeliveries(slot: number, subscriptionIds: readonly number[], now: number): Promise<number>;
  /** Queued rows, oldest slot first. */
  queuedDeliveries(): Promise<PendingDelivery[]>;
  /** Moves a row from one of `from` to `to`; false when another poster got there first. */
  transitionDelivery(
    subscriptionId: number, slot: number, from: readonly DeliveryState[], to: DeliveryState, now: number, detail?: string,
  ): Promise<boolean>;
  /** At start-up: rows a crash left in `sending` become `interrupted`; returns how many. */
  interruptSending(now: number): Promise<number>;
  /** Deletes rows in a final state whose slot is before `before`; returns how many. */
  pruneDeliveries(before: number): Promise<number>;
  /** Counts of rows by state, for one slot or all (tests, metrics). */
  deliveryCounts(slot?: number): Promise<Partial<Record<DeliveryState, number>>>;
  setLastRanking(subscriptionId: number, ranking: readonly string[]): Promise<void>;
  pauseSubscription(subscriptionId: number, reason: string): Promise<void>;
  /** Takes or renews a named lease; true when `holder` has it until `now + ttlMs`. */
  acquireLease(name: string, holder: string, ttlMs: number, now: number): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<void>;
  /** Who holds a lease now, if anyone (expired or not). */
  leaseHolder(name: string): Promise<string | undefined>;
  /** Takes a lease from `deadHolder` (known to be gone); false when someone else holds it now. */
  takeOverLease(name: string, deadHolder: string, holder: string, ttlMs: number, now: number): Promise<boolean>;
}
