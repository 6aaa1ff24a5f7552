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
  /** The chat's language (a locale file's name, e.g. `en`, `zh`); undefined = chosen per platform (see src/i18n/choose.ts). */
  language?: string;
  /** Show a 24 h chart with the token card; undefined = on. */
  cardChart?: boolean;
  /** Whether cards here make calls and say who called a token; undefined = on (calls are kept in groups only). */
  calls?: boolean;
  /**
   * The topic (a Telegram forum's thread) the bot's own posts go to: the one the chat's latest
   * digest, alert, launch or buy feed was set up in; undefined = the chat's main thread.
   */
  postTopic?: string;
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
  /** The Discord server a channel was noted in, if it was. */
  guildOf(chat: ChatKey): Promise<string | undefined>;
  /** A Telegram group became a supergroup: move its state to the new id. */
  moveChat(from: ChatKey, toChatId: string): Promise<void>;
}

export interface Store extends SettingsStore {
  /** The digest's subscriptions, deliveries and leases, on the same database. */
  readonly subscriptions: SubscriptionStore;
  /** Price alerts, their firings and the tokens' last seen prices, on the same database. */
  readonly alerts: AlertStore;
  /** Each chat's watched tokens, on the same database. */
  readonly watchlists: WatchlistStore;
  /** What buttons too small for their action run, on the same database. */
  readonly buttonActions: ButtonActionStore;
  /** Members' calls of tokens and what the sweep read since, on the same database. */
  readonly calls: CallStore;
  /** Each chat's buy feeds, the pairs' watch cursors and the buys owed to chats, on the same database. */
  readonly buys: BuyFeedStore;
  /** New-launch subscriptions and their posts, on the same database. */
  readonly launches: LaunchStore;
  /** Every worker's minutes of the operator's page, on the same database. */
  readonly opsSamples: OpsSampleStore;
  /** The compute units each API key spent each UTC day, on the same database. */
  readonly unitSpend: UnitSpendStore;
  /**
   * The scheduled sends of every kind (digests, alerts, buy posts, launches) to `platform` that
   * left, or may have, after `since` (epoch ms): a restarted process's pace counts them, as the
   * platform still does.
   */
  recentSends(platform: Platform, since: number): Promise<RecentSend[]>;
  isOpen(): boolean;
  /** Whether the database can serve reads and writes now; when not, why, naming the setting to look at. */
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}

/** A scheduled send as its row recorded it: its chat, and when it left or was answered (epoch ms). */
export interface RecentSend {
  chatId: string;
  at: number;
}

/**
 * Button actions that outlive the process: an action (opaque text) under the short key its
 * button carries, until it expires. A put of a known key renews it; it never shortens a lifetime.
 */
export interface ButtonActionStore {
  /** Stores `action` under `key` until `expiresAt` (epoch ms), or renews it. */
  putAction(key: string, action: string, expiresAt: number): Promise<void>;
  /** The action under `key`, unless it had expired by `now`. */
  getAction(key: string, now: number): Promise<string | undefined>;
  /** Deletes the actions expired by `now`; returns how many. */
  pruneActions(now: number): Promise<number>;
}

/** What /readyz says about the database. */
export interface StoreHealth {
  ok: boolean;
  detail?: string;
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
 * Where one scheduled message stands (src/store/send-rows.ts, src/delivery/protocol.ts):
 * `queued` → `sending` (claimed by one sender) → an outcome. A row left in `sending` by a
 * sender that died or lost its lease becomes `interrupted` — its outcome unknown — and is
 * claimed and sent once more; a resend that is delivered is recorded `resent`. The first
 * sender, if it lives on, may still record its outcome over `interrupted` before that.
 */
export type SendState =
  | "queued" | "sending" | "delivered" | "resent" | "gone" | "moved" | "forbidden" | "failed" | "expired" | "interrupted";

/**
 * What a claim found: the row is now the sender's, for a first send (`claimed`) or for another
 * after an interrupted one (`resend`); another got it first (or it is no longer waiting); or the
 * sender does not hold the lease it sends under, and nothing changed.
 */
export type SendClaim = "claimed" | "resend" | "taken" | "unleased";

/** Where one (subscription, slot) stands. */
export type DeliveryState = SendState;

export type DeliveryClaim = SendClaim;

export interface PendingDelivery {
  subscription: Subscription;
  /** Slot start, epoch ms (a minute boundary). */
  slot: number;
}

/** A named lease as the table holds it: expired ones stay until taken again or released. */
export interface LeaseRow {
  name: string;
  holder: string;
  /** Epoch ms. */
  expiresAt: number;
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
  /** Rows waiting for a send, oldest slot first: `queued`, and `interrupted` ones to send once more. */
  queuedDeliveries(): Promise<PendingDelivery[]>;
  /** Moves a row from one of `from` to `to`; false when another poster got there first. */
  transitionDelivery(
    subscriptionId: number, slot: number, from: readonly DeliveryState[], to: DeliveryState, now: number, detail?: string,
  ): Promise<boolean>;
  /**
   * Claims a queued or interrupted row for `sender` (→ `sending`, recording the sender) while it
   * holds the lease `lease` unexpired at `now`: a poster that lost its lease claims nothing.
   */
  claimDelivery(subscriptionId: number, slot: number, sender: string, lease: string, now: number): Promise<DeliveryClaim>;
  /**
   * Records the outcome of a row `sender` claimed: from `sending`, or from `interrupted` when
   * its send finished after another poster had given it up. False when the row is not its.
   */
  settleDelivery(subscriptionId: number, slot: number, sender: string, to: DeliveryState, now: number, detail?: string): Promise<boolean>;
  /** Rows `sending` under any sender but `holder` (the lease holder now) become `interrupted`, to be sent once more; returns how many. */
  interruptSending(now: number, holder: string): Promise<number>;
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
  /** Every named lease with its holder and expiry, by name (the operator's page). */
  leases(): Promise<LeaseRow[]>;
  /** Takes a lease from `deadHolder` (known to be gone); false when someone else holds it now. */
  takeOverLease(name: string, deadHolder: string, holder: string, ttlMs: number, now: number): Promise<boolean>;
}

/** When an alert fires: the price rises to a level, falls to one, or moves by a percent either way. */
export type AlertRule = "above" | "below" | "move";

/** A chat's price alert. Prices and percents are decimal text, as the service writes them. */
export interface Alert {
  id: number;
  platform: Platform;
  chatId: string;
  /** The chat's own number for it (#1, #2, …), never reused in that chat. */
  number: number;
  tokenId: string;
  /** Display symbol and chain, cleaned when the alert was made. */
  symbol: string;
  chain: string;
  rule: AlertRule;
  /** above/below: the price level in USD; move: the percent. */
  level: string;
  /** The price judged from: at creation or re-arm, and for `move` the price it last fired on. */
  anchorPrice: string;
  /** When `anchorPrice` was taken (epoch ms); also a version that a firing must still match. */
  anchorAt: number;
  /** False once an above/below alert has fired, until it is re-armed. */
  armed: boolean;
  /** Set while its token has had no price for 24 h (epoch ms). */
  pausedAt?: number;
  lastFiredAt?: number;
  createdAt: number;
}

export type NewAlert = Pick<Alert, "platform" | "chatId" | "tokenId" | "symbol" | "chain" | "rule" | "level" | "anchorPrice" | "anchorAt">;

/** The last price the checker saw of a token, and since when it has been missing. */
export interface TokenSighting {
  tokenId: string;
  price?: string;
  seenAt?: number;
  missingSince?: number;
}

/** What one check decided about one alert: new values, and a message to queue when it fired or paused. */
export interface AlertChange {
  alertId: number;
  /** The alert's `anchorAt` as the check read it: a change to an alert re-armed or deleted since is dropped. */
  anchorAt: number;
  set: { armed?: boolean; anchorPrice?: string; anchorAt?: number; lastFiredAt?: number; pausedAt?: number | null };
  /** Queued as a firing in the same transaction; `payload` is the message's data (JSON text). */
  notice?: { kind: "fired" | "paused"; payload: string };
}

/** Where one firing stands (SendState): claimed by one worker under its heartbeat. */
export type FiringState = SendState;

/** One message an alert owes a chat, recorded before it is sent. */
export interface AlertFiring {
  id: number;
  alertId: number;
  platform: Platform;
  chatId: string;
  kind: "fired" | "paused";
  payload: string;
  state: FiringState;
  firedAt: number;
}

export interface AlertStore {
  /** Adds an alert with the chat's next number, unless the chat already has `max`: then `{ full }` with its count. */
  addAlert(a: NewAlert, max: number, now: number): Promise<{ alert: Alert } | { full: number }>;
  /** The chat's alerts by number. */
  listAlerts(chat: ChatKey): Promise<Alert[]>;
  /** Removes alert `number` of the chat, or all of them; returns how many. */
  removeAlerts(chat: ChatKey, number: number | "all"): Promise<number>;
  /** Arms alert `number` again from `anchorPrice`; undefined when the chat has no such alert. */
  rearmAlert(chat: ChatKey, number: number, anchorPrice: string, now: number): Promise<Alert | undefined>;
  /** Every armed alert (paused ones too), of every chat. */
  armedAlerts(): Promise<Alert[]>;
  /** Last sightings of `tokenIds` (those never seen are left out). */
  sightings(tokenIds: readonly string[]): Promise<TokenSighting[]>;
  /**
   * One check's outcome in one transaction: the sightings, then each change whose alert still has
   * its `anchorAt` (and, for a firing, is still armed), queuing its notice. Returns the notices queued.
   */
  commitCheck(sightings: readonly TokenSighting[], changes: readonly AlertChange[], now: number): Promise<number>;
  /** Firings waiting for a send, oldest first: `queued`, and `interrupted` ones to send once more. */
  queuedFirings(): Promise<AlertFiring[]>;
  /** Moves a firing from one of `from` to `to`; false when another process got there first or it is gone. */
  transitionFiring(id: number, from: readonly FiringState[], to: FiringState, now: number, detail?: string): Promise<boolean>;
  /**
   * Claims a queued or interrupted firing for `sender` (→ `sending`, recording the sender) while it
   * holds its lease `lease` unexpired at `now`: a sender whose heartbeat ran out claims nothing.
   */
  claimFiring(id: number, sender: string, lease: string, now: number): Promise<DeliveryClaim>;
  /**
   * Records the outcome of a firing `sender` claimed: from `sending`, or from `interrupted` when
   * its send finished after another worker had given it up. False when the firing is not its.
   */
  settleFiring(id: number, sender: string, to: FiringState, now: number, detail?: string): Promise<boolean>;
  /** The senders of the firings now `sending` ("" for a row claimed before senders were recorded). */
  sendersInFlight(): Promise<string[]>;
  /** Firings left `sending` by `senders` (known to be gone) become `interrupted`, to be sent once more; returns how many. */
  interruptFirings(now: number, senders: readonly string[]): Promise<number>;
  /** Deletes firings in a final state fired before `before`; returns how many. */
  pruneFirings(before: number): Promise<number>;
  /** Firings by state (tests, metrics). */
  firingCounts(): Promise<Partial<Record<FiringState, number>>>;
}

/** A token on a chat's watchlist. */
export interface WatchedToken {
  tokenId: string;
  symbol: string;
  chain: string;
  addedAt: number;
}

export interface WatchlistStore {
  /**
   * Adds the tokens the chat does not watch yet, in order, while it has fewer than `max`;
   * returns which were added, which it already had, and which did not fit.
   */
  addWatched(chat: ChatKey, tokens: readonly Omit<WatchedToken, "addedAt">[], max: number, now: number): Promise<{ added: string[]; already: string[]; refused: string[] }>;
  /** Removes a token from the chat's watchlist, or all; returns how many. */
  removeWatched(chat: ChatKey, tokenId: string | "all"): Promise<number>;
  /** The chat's watched tokens, oldest first. */
  listWatched(chat: ChatKey): Promise<WatchedToken[]>;
  /** Distinct token ids on any watchlist of these platforms (the checker's batch). */
  watchedTokenIds(platforms: readonly Platform[]): Promise<string[]>;
}

/**
 * A member's call of a token on a board: a Telegram chat, or a Discord server (its channels
 * share one board). Prices are decimal text as the service wrote them.
 */
export interface Call {
  id: number;
  platform: Platform;
  /** The board: a Telegram chat id, or a Discord server id. */
  boardId: string;
  tokenId: string;
  /** Display symbol and chain, cleaned when the call was made. */
  symbol: string;
  chain: string;
  userId: string;
  /** The member's name as shown then (never a mention), and their @handle when they had one. */
  userName: string;
  userHandle?: string;
  calledAt: number;
  /** The price and market cap the card showed. */
  price: string;
  marketCap?: string;
  /** The highest K-line `high` from the call's minute that the sweep has read; the call price before its first read. */
  high: string;
  /** Start of the K-line bucket of that high (epoch ms); undefined while the high is the call price. */
  highAt?: number;
  /** The last close the sweep read, and until when it has read (epoch ms); undefined before the first read. */
  lastPrice?: string;
  sweptTo?: number;
}

export type NewCall = Pick<Call, "platform" | "boardId" | "tokenId" | "symbol" | "chain" | "userId" | "userName" | "userHandle" | "calledAt" | "price" | "marketCap">;

/** What one sweep read for one call. */
export interface CallRead {
  callId: number;
  high: string;
  highAt?: number;
  lastPrice: string;
  sweptTo: number;
}

/** A token the sweep should read, from the earliest point any of its calls still needs. */
export interface TokenToSweep {
  tokenId: string;
  /** Epoch ms: the oldest of its calls' `sweptTo` (or call time, never read). */
  from: number;
}

/** How the last sweep went, for the boards' "as of" and a stretched period. */
export interface SweepStatus {
  /** When it ran (epoch ms). */
  ranAt: number;
  /** The period it keeps (ms): the configured one, or longer when the plan cannot cover every token. */
  periodMs: number;
  /** Tokens called in the last 7 days when it ran. */
  tokens: number;
}

export interface CallStore {
  /**
   * Records `call` unless the board already has a call of the token made at or after `since`;
   * either way returns the board's call of it, and whether it is this one. Atomic across processes.
   */
  recordCall(call: NewCall, since: number): Promise<{ call: Call; made: boolean }>;
  /** The board's call of a token made at or after `since`, if any. */
  currentCall(board: ChatKey, tokenId: string, since: number): Promise<Call | undefined>;
  /** Deletes a call; false when it was gone already. */
  removeCall(id: number): Promise<boolean>;
  /** The board's calls made at or after `since`, oldest first. */
  boardCalls(board: ChatKey, since: number): Promise<Call[]>;
  /** One member's calls on the board, newest first, at most `limit`. */
  memberCalls(board: ChatKey, userId: string, limit: number): Promise<Call[]>;
  /**
   * A caller of the board by @handle (any case, the "@" optional) or by the name as recorded
   * (`userName`), most recent first.
   */
  findCaller(board: ChatKey, who: { handle: string; name: string }): Promise<{ userId: string; userName: string } | undefined>;
  /** Every call of a token made at or after `since`, of every board. */
  tokenCalls(tokenId: string, since: number): Promise<Call[]>;
  /** Tokens with a call made at or after `since`, the one read longest ago first. */
  tokensToSweep(since: number): Promise<TokenToSweep[]>;
  /** Saves a sweep's reads; a call removed meanwhile is left gone. */
  saveReads(reads: readonly CallRead[]): Promise<void>;
  sweepStatus(): Promise<SweepStatus | undefined>;
  setSweepStatus(status: SweepStatus): Promise<void>;
}

/** What a chat's buy feed of one token posts. Amounts are USD decimal text. */
export interface BuyOptions {
  /** Smallest trade posted. Default 50. */
  minUsd: string;
  /** Sells are posted too (in red). Default off. */
  sells: boolean;
  /** A trade at or over this is a whale (🐳, with the media). Default 10000. */
  whaleUsd: string;
  /** The bar's emoji. Default 🟢. */
  emoji: string;
  /** One emoji per this many USD (at most 40). Default 50. */
  stepUsd: string;
}

/** The picture, GIF or video a chat's whale posts of a token show. */
export interface BuyMedia {
  kind: "photo" | "animation" | "video";
  /** Telegram's `file_id`, which the bot may send again for as long as it likes. */
  fileId?: string;
  /** The bot's own copy (Discord, whose links to a member's upload expire): file name, MIME type, bytes. */
  file?: { name: string; type: string; data: Uint8Array };
}

/** A chat's buy feed of one token: posts its trades from `createdAt` on. */
export interface BuyFeed extends ChatKey {
  tokenId: string;
  /** Display symbol and chain, cleaned when the feed was made. */
  symbol: string;
  chain: string;
  options: BuyOptions;
  /** Epoch ms; trades before it are not this chat's. */
  createdAt: number;
  /** What kind of media its whale posts show, if any (`feedMedia` reads the media itself). */
  media?: BuyMedia["kind"];
}

/** Where the watch of one pair stands. */
export interface PairWatch {
  pairId: string;
  tokenId: string;
  /** Epoch seconds: the newest `tx_time` handed out; a poll asks from it minus the overlap. */
  cursor: number;
  /** Epoch seconds of the newest trade seen, for the back-off of a quiet pair. */
  lastTradeAt?: number;
  /** Epoch ms of the next poll. */
  nextPollAt: number;
  /** What polls cut by their page limit left unread, newest first; absent when nothing is. */
  gaps?: PairGap[];
}

/**
 * Swaps of a pair not read yet: those after `after` (the cursor of the poll that left them) up
 * to `to` (the oldest second that poll read, asked again since a page may end inside it).
 */
export interface PairGap {
  after: number;
  to: number;
}

/**
 * Where a buy owed to a chat stands: `queued` → `posted` (in its own post) or `folded` (in a
 * summary post); the send protocol takes the posts from there.
 */
export type OwedBuyState = "queued" | "posted" | "folded" | "dropped";

/** One trade owed to one chat, recorded once per (chat, swap identity). */
export interface OwedBuy extends ChatKey {
  /** Chain, pair, transaction hash and amounts: one swap, whatever poll saw it. */
  swapKey: string;
  tokenId: string;
  /** Epoch seconds of the trade. */
  txTime: number;
  /** What the post shows (JSON text of the swap as the watcher read it). */
  payload: string;
  state: OwedBuyState;
  /** When the watcher recorded it, epoch ms. */
  queuedAt: number;
  /** The summary post it was folded into, when folded. */
  summaryId?: string;
}

export type NewOwedBuy = Omit<OwedBuy, "state" | "queuedAt" | "summaryId">;

export interface BuyFeedStore {
  /**
   * Starts the chat's feed of a token (its pairs watched from `now`), or changes its options;
   * refuses a new token when the chat already follows `max`: then `{ full }` with its count.
   */
  upsertFeed(feed: Omit<BuyFeed, "createdAt" | "media">, pairIds: readonly string[], max: number, now: number): Promise<{ feed: BuyFeed; created: boolean } | { full: number }>;
  listFeeds(chat: ChatKey): Promise<BuyFeed[]>;
  /** Sets (or with undefined removes) the media of the chat's feed of a token; false when the chat does not follow it. */
  setFeedMedia(chat: ChatKey, tokenId: string, media: BuyMedia | undefined): Promise<boolean>;
  /** The media of the chat's feed of a token, with the bot's copy of the file when it keeps one. */
  feedMedia(chat: ChatKey, tokenId: string): Promise<BuyMedia | undefined>;
  /**
   * Stops the chat's feed of a token, or all, from now: its posts not yet sent are dropped (one
   * in flight goes), a pair no feed follows any more is no longer watched, and its token's
   * wallets are forgotten. Returns how many.
   */
  removeFeeds(chat: ChatKey, tokenId: string | "all"): Promise<number>;
  /** Every feed of the token a pair belongs to. */
  feedsOnPair(pairId: string): Promise<BuyFeed[]>;
  /** Every pair watched, soonest poll first. */
  watches(): Promise<PairWatch[]>;
  /**
   * One poll's outcome in one transaction: the buys owed (a swap a chat already has is left
   * alone) and the pair's new cursor, gaps, back-off and next poll. The pair's row changes only
   * if its cursor and gaps are still those of `read`, the watch as the poll read it: a worker
   * whose lease ran out mid-poll never writes over the gaps its successor recorded.
   * Returns how many buys were new.
   */
  commitPoll(watch: PairWatch, owed: readonly NewOwedBuy[], now: number, read: PairWatch): Promise<number>;
  /**
   * Records each wallet's first buy of the token seen (`buys` oldest first; a wallet already
   * recorded keeps its first), while the token has fewer than `max` wallets recorded. Returns
   * the swap keys among `buys` that are their wallet's first buy seen, now or before.
   */
  firstBuys(tokenId: string, buys: readonly { wallet: string; swapKey: string }[], max: number): Promise<Set<string>>;
  /** Chats with buys queued, oldest buy first. */
  chatsOwed(): Promise<ChatKey[]>;
  /** The chat's queued buys, oldest trade first. */
  queuedBuys(chat: ChatKey): Promise<OwedBuy[]>;
  /** Moves the chat's buys from `queued` to `dropped` (their feed was stopped); returns how many moved. */
  dropBuys(chat: ChatKey, swapKeys: readonly string[], now: number): Promise<number>;
  /**
   * Queues one post of the send protocol and, in the same transaction, moves the buys it
   * carries from `queued` to `posted` (a post of its own) or `folded` (a summary): false, and
   * nothing changed, when one of them is no longer queued or the post exists already.
   */
  queueBuyPost(post: NewBuyPost, now: number): Promise<boolean>;
  /** Posts waiting for a send (`queued` or `interrupted`), oldest first. */
  waitingBuyPosts(): Promise<BuyPost[]>;
  /** Claims a waiting post for `sender` while it holds the lease `lease` (send-rows.ts). */
  claimBuyPost(post: BuyPostKey, sender: string, lease: string, now: number): Promise<SendClaim>;
  /** Records the outcome of a post `sender` claimed. */
  settleBuyPost(post: BuyPostKey, sender: string, to: SendState, now: number, detail?: string): Promise<boolean>;
  /** A waiting post never claimed whose deadline passed becomes `expired`. */
  expireBuyPost(post: BuyPostKey, now: number, detail?: string): Promise<boolean>;
  /** Posts left `sending` by anyone but `holder` (the one sender of the feed) become `interrupted`; returns how many. */
  interruptBuyPosts(now: number, holder: string): Promise<number>;
  /**
   * Deletes posts with an outcome, and buys no longer queued, recorded before `before` (epoch ms);
   * returns how many buys. A buy is kept while a poll could still read its swap again (and would
   * post it twice without it): while it is not older than `overlapSeconds` before the cursor of
   * one of its token's watched pairs, or such a pair has gaps left to read.
   */
  pruneBuys(before: number, overlapSeconds: number): Promise<number>;
  /** Buys by state (tests, metrics). */
  buyCounts(): Promise<Partial<Record<OwedBuyState, number>>>;
  /** Posts by send state (tests). */
  buyPostCounts(): Promise<Partial<Record<SendState, number>>>;
}

/** One post of the buy feed as the send protocol keys it. */
export interface BuyPostKey extends ChatKey {
  /** A single buy's swap key, or `fold:<first swap key>:<count>` for a summary. */
  postKey: string;
}

/** One post of the buy feed: a single buy or a summary of folded ones, a row of the send protocol. */
export interface BuyPost extends BuyPostKey {
  tokenId: string;
  kind: "post" | "summary";
  /** Epoch seconds of the newest trade it carries (a chat's posts go out oldest first). */
  txTime: number;
  /** What the post renders (JSON text: the feed's symbol, chain and options, and the trades it carries). */
  payload: string;
  state: SendState;
  /** When it was queued, epoch ms. */
  queuedAt: number;
}

export type NewBuyPost = Omit<BuyPost, "state" | "queuedAt"> & { swapKeys: readonly string[] };

/** A chat's subscription to a chain's new launches; `minLiquidity` in whole USD (0 = any). */
export interface LaunchSubscription extends ChatKey {
  chain: string;
  minLiquidity: number;
  createdAt: number;
}

/** A post of one new token, or the summary of the tokens folded past a chat's hourly cap. */
export type LaunchPostKind = "token" | "summary";

/**
 * A launch post's state: a send state, or held past the hourly cap (`folded`) until a summary
 * names it (`summarised`), or left unsent because the chat unsubscribed from its chain (`dropped`).
 */
export type LaunchPostState = SendState | "folded" | "summarised" | "dropped";

export interface NewLaunchPost extends ChatKey {
  /** The token's id, or `summary:<hour start>` for a summary. */
  tokenId: string;
  kind: LaunchPostKind;
  chain: string;
  /** JSON the post is written from, in the chat's language at send time. */
  payload: string;
}

export interface LaunchPost extends NewLaunchPost {
  queuedAt: number;
  state: LaunchPostState;
}

export interface LaunchStore {
  /** Adds, or changes the minimum of, the chat's subscription to `chain`. */
  upsertLaunchSubscription(s: Omit<LaunchSubscription, "createdAt">, now: number): Promise<LaunchSubscription>;
  /**
   * Removes the chat's subscription to `chain`, and drops what the chat was still to get of it
   * (posts queued, tokens folded for a summary): nothing of the chain reaches the chat after it
   * was told the posts stopped. A post in flight stays in flight. Returns how many (0 or 1).
   */
  removeLaunchSubscription(chat: ChatKey, chain: string): Promise<number>;
  listLaunchSubscriptions(chat: ChatKey): Promise<LaunchSubscription[]>;
  /** Chains with at least one subscription: one watcher each. */
  launchChains(): Promise<string[]>;
  launchSubscribersOn(chain: string): Promise<LaunchSubscription[]>;
  /** Adds the (chat, token) row unless it exists; true when it was new. */
  queueLaunchPost(p: NewLaunchPost, state: "queued" | "folded", now: number): Promise<boolean>;
  /** Token posts of the chat queued since `since` and not folded: its posts this hour. */
  launchesCountedSince(chat: ChatKey, since: number): Promise<number>;
  /** Rows waiting for a send, oldest first: `queued`, and `interrupted` ones to send once more. */
  waitingLaunchPosts(): Promise<LaunchPost[]>;
  /** Folded rows queued before `before`, oldest first: due for their summary. */
  foldedBefore(before: number): Promise<LaunchPost[]>;
  markSummarised(chat: ChatKey, tokenIds: readonly string[], now: number): Promise<void>;
  claimLaunchPost(p: LaunchPost, sender: string, lease: string, now: number): Promise<SendClaim>;
  settleLaunchPost(p: LaunchPost, sender: string, to: SendState, now: number, detail?: string): Promise<boolean>;
  transitionLaunchPost(p: LaunchPost, from: readonly SendState[], to: SendState, now: number, detail?: string): Promise<boolean>;
  /** Rows `sending` under anyone but `holder` (the watcher's lease holder now) become `interrupted`. */
  interruptLaunchPosts(now: number, holder: string): Promise<number>;
  /** Deletes finished rows queued before `before`; returns how many. */
  pruneLaunchPosts(before: number): Promise<number>;
  /** Counts of rows by state (tests, metrics). */
  launchPostCounts(): Promise<Partial<Record<LaunchPostState, number>>>;
  /** Whether the chat has a row for the token already (posted, queued, folded or dropped): it will not get it again. */
  hasLaunchPost(chat: ChatKey, tokenId: string): Promise<boolean>;
}

/**
 * One worker's minute for the operator's page: what its counters rose by since its previous
 * sample (since `since`, its start for the first) and its gauges at `at`, each as JSON
 * `[series, value][]`. Stored so that any worker's page charts every worker's traffic.
 */
export interface OpsSample {
  worker: string;
  at: number;
  since: number;
  counters: string;
  gauges: string;
}

/**
 * The compute units an API key spent each UTC day (days since the epoch), kept where a restarted
 * process or another worker on the same database finds them. Keys are named by a hash, never by
 * the key itself.
 */
export interface UnitSpendStore {
  /** Adds `units` to the key's day, forgets days over a week old, and resolves with the day's total. */
  addUnits(keyName: string, day: number, units: number): Promise<number>;
  /** The key's total for the day so far. */
  unitsSpent(keyName: string, day: number): Promise<number>;
}

/** The operator's page history shared by the workers of one bot. */
export interface OpsSampleStore {
  /** Records a worker's minute; a second one at the same `at` replaces it. */
  addSample(sample: OpsSample): Promise<void>;
  /** Every worker's samples at or after `since`, oldest first. */
  samplesSince(since: number): Promise<OpsSample[]>;
  /** Forgets the samples before `before`; returns how many. */
  pruneSamples(before: number): Promise<number>;
}
