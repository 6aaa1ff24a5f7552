/**
 * The Discord adapter: the core wired to discord.js clients. Its parts live by job: the client's
 * set-up (`client.ts`), login failures (`login.ts`), shard leases (`leased-shards.ts`), HTTP
 * interactions (`http-interactions.ts`, `interaction-action.ts`), what each interaction does
 * (`interactions.ts`), channel auto-detect (`channel-autodetect.ts`) and posts (`send.ts`).
 * Every handler catches; each client has an `error` listener (without one, a rejected handler
 * kills the process).
 */
import { DefaultRestOptions, Events, RESTEvents, Routes, type Client, type Interaction, type RESTOptions } from "discord.js";
import { LRUCache } from "lru-cache";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { BotCore } from "../../core/bot-core.js";
import type { Reply } from "../../core/reply.js";
import type { ButtonActionStore } from "../../store/types.js";
import type { PlatformAdapter, PreparedSend, SendOutcome } from "../types.js";
import type { PaceLedger } from "../../digest/pace-ledger.js";
import type { SharedRedis } from "../../redis/connection.js";
import { redisPaceLedger } from "../../redis/pace-ledger.js";
import { redisRoutePace } from "../../redis/route-pace.js";
import { createActionStore, type ActionStore } from "./buttons.js";
import { channelAutodetect } from "./channel-autodetect.js";
import { clientFor, type ClientSettings } from "./client.js";
import { onAutocomplete, onButton, onChatInput, onMessageCommand, type InteractionDeps } from "./interactions.js";
import { interactionDispatcher } from "./interaction-action.js";
import { leasedShards, type LeasedShards } from "./leased-shards.js";
import { loginFailure } from "./login.js";
import { renderMessage, type DiscordMessage } from "./message.js";
import { createInteractionCallbacks, createInteractionsEndpoint, INTERACTIONS_PATH } from "./http-interactions.js";
import { DISCORD_GLOBAL_PER_SECOND, sharedRestGate } from "./rest-gate.js";
import { memoryRoutePace, type RoutePace } from "./route-pace.js";
import { postToChannel, type InServer } from "./send.js";
import { entryBound } from "../../lru-bound.js";

/** Discord's public REST root. */
export const DEFAULT_DISCORD_API_ROOT = "https://discord.com/api";

export interface DiscordAdapterOptions {
  /** Bot token; never logged or shown. */
  token: string;
  applicationId: string;
  /** REST root without a trailing slash; discord.js appends `/v10/…`. Default https://discord.com/api. */
  apiRoot?: string;
  core: BotCore;
  logger: Logger;
  /** Request the privileged message-content intent and allow channel auto-detect. Default false. */
  messageContent?: boolean;
  /** How long the core may take before an interaction is deferred. Default 1500 ms (Discord allows 3 s). */
  ackWithinMs?: number;
  /** Where button actions live. Default actions in the custom id, long ones in `buttonActions` for 8 days. */
  actions?: ActionStore;
  /** Where button actions too long for a custom id outlive the process. */
  buttonActions?: ButtonActionStore;
  /** Clock (epoch ms) for data ages in footers and the shared REST rate's books. Default Date.now. */
  now?: () => number;
  /**
   * Called for every 429 Discord's REST answers, including those discord.js then waits out and
   * retries, with the route (ids as `:id`) and the delay Discord asked for. For metrics.
   */
  onRateLimited?: (route: string, retryAfterMs: number) => void;
  /**
   * Gateway shards of several workers: `ids` runs those of `count`; without `ids`, `leases`
   * shares the `count` shards among the workers through Redis. Default one shard, all servers.
   */
  shards?: { count: number; ids?: readonly number[]; leases?: { redis: SharedRedis; worker: string; ttlMs?: number } };
  /** The application's Ed25519 public key (hex): interactions are also served over HTTP. */
  publicKey?: string;
  /** Redis shared by the bot's workers: their REST calls keep Discord's global rate and each route's limit together. */
  redis?: SharedRedis;
  /** Where that shared rate is kept; default in `redis` when it is set (tests hold it). */
  restLedger?: PaceLedger;
  /** Where the routes' limits are kept with it; default in `redis` when it is set, else in process. */
  routePace?: RoutePace;
  /** Time a REST request waited for its route's turn and the shared rate (metrics). */
  onRestWait?: (ms: number) => void;
}

/** The adapter, with what several workers need to see of it. */
export interface DiscordAdapter extends PlatformAdapter {
  /** Route for the ops HTTP server when `publicKey` is set. */
  readonly interactions?: { path: string; handler: (req: IncomingMessage, res: ServerResponse) => Promise<void> };
  /** The gateway shards this worker runs now (empty with one unsharded connection). */
  shards(): number[];
}

/** How long Discord's answer on whether the bot is in a server is taken as still true. */
const MEMBERSHIP_KEPT_MS = 10 * 60_000;

/** Creates the Discord adapter; `start()` logs in, `send()` posts digests. */
export function createDiscordAdapter(opts: DiscordAdapterOptions): DiscordAdapter {
  const apiRoot = opts.apiRoot ?? DEFAULT_DISCORD_API_ROOT;
  if (apiRoot.endsWith("/")) {
    throw new Error(`The Discord API root must not end with a slash: use ${apiRoot.replace(/\/+$/, "")}`);
  }
  const messageContent = opts.messageContent ?? false;
  const log = opts.logger.child({ platform: "discord" });
  const now = opts.now ?? Date.now;
  const actions =
    opts.actions ??
    createActionStore({
      now,
      secret: opts.token,
      store: opts.buttonActions,
      onStoreError: (e) => log.warn({ err: e instanceof Error ? e.message : String(e) }, "button action store failed; long buttons work in this process only"),
    });
  const callbacks = createInteractionCallbacks();
  const restLedger =
    opts.restLedger ??
    (opts.redis === undefined
      ? undefined
      : redisPaceLedger({ redis: opts.redis, scope: `discord-rest:${opts.applicationId}`, ratePerSecond: DISCORD_GLOBAL_PER_SECOND }));
  // One worker alone needs no gate: its discord.js keeps the global rate and the routes' buckets itself.
  const gate =
    restLedger === undefined
      ? undefined
      : sharedRestGate({
          ledger: restLedger,
          now,
          routes: opts.routePace ?? (opts.redis === undefined ? memoryRoutePace() : redisRoutePace({ redis: opts.redis, scope: `discord-rest:${opts.applicationId}` })),
          ...(opts.onRestWait ? { onWait: opts.onRestWait } : {}),
        });
  const baseRequest = DefaultRestOptions.makeRequest as NonNullable<RESTOptions["makeRequest"]>;
  const settings: ClientSettings = {
    apiRoot,
    messageContent,
    // A bot's user id is its application's id.
    botId: opts.applicationId,
    makeRequest: callbacks.wrap(gate === undefined ? baseRequest : gate(baseRequest)),
    ...(opts.redis === undefined || opts.shards === undefined ? {} : { identify: { redis: opts.redis, scope: opts.applicationId } }),
  };
  const leases = opts.shards?.ids === undefined ? opts.shards?.leases : undefined;
  const fixedShards =
    opts.shards === undefined || leases !== undefined
      ? undefined
      : { ids: [...(opts.shards.ids ?? Array.from({ length: opts.shards.count }, (_, i) => i))], count: opts.shards.count };
  // The client that answers over REST and HTTP; with leases the gateway runs in one client per shard held.
  const client = clientFor({ ...settings, ...(fixedShards ? { shards: fixedShards } : {}) });
  let leased: LeasedShards | undefined;
  const inFlight = new Set<Promise<void>>();
  // Channels whose server is already noted: told to the core once per channel, not per command.
  const noted = new LRUCache<string, string>(entryBound(10_000));
  // What Discord answered about a server, kept a while: a hidden channel's every alert would ask again.
  const membership = new LRUCache<string, boolean>({ ...entryBound(10_000), ttl: MEMBERSHIP_KEPT_MS });
  let stopping = false;
  let lastCloseCode: number | undefined;

  /** Whether `chatId` is a channel of a server the bot is in, as a gateway of this worker told it. */
  const knownInServer = (chatId: string): boolean =>
    [client, ...(leased?.gateways() ?? [])].some((c) => {
      const channel = c.channels.cache.get(chatId);
      return channel !== undefined && "guildId" in channel && channel.guildId !== null && c.guilds.cache.has(channel.guildId);
    });

  /**
   * Whether a channel that answered Missing Access is one of a server the bot is still in (a
   * hidden channel, kept paused) or not (gone). A gateway knows its servers only once their
   * GUILD_CREATE has come, which is after the first posts of a start, and never a server on a
   * shard another worker holds: those are asked of Discord, one page of one of the bot's
   * servers from just below the channel's server. A channel whose server was never noted
   * counts as gone, as before servers were noted.
   */
  const inServer: InServer = async (chatId) => {
    if (knownInServer(chatId)) return true;
    let guildId = noted.get(chatId);
    try {
      guildId ??= await opts.core.chats.serverOf({ platform: "discord", chatId });
      if (guildId === undefined || !/^\d{1,25}$/.test(guildId)) return false;
      const known = membership.get(guildId);
      if (known !== undefined) return known;
      const query = new URLSearchParams({ after: (BigInt(guildId) - 1n).toString(), limit: "1" });
      const [first] = (await client.rest.get(Routes.userGuilds(), { query })) as { id: string }[];
      membership.set(guildId, first?.id === guildId);
      return first?.id === guildId;
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : String(err), chatId, guildId }, "could not tell whether the bot is still in a channel's server");
      return undefined;
    }
  };

  /** The post as Discord takes it, or the outcome when it cannot be drawn. */
  const render = (chatId: string, reply: Reply): DiscordMessage | SendOutcome => {
    try {
      return renderMessage(reply, { actions, now });
    } catch (err) {
      log.error({ err, chatId }, "discord send failed while rendering");
      return { kind: "failed", reason: "could not render the message" };
    }
  };

  const deps: InteractionDeps = {
    core: opts.core,
    actions,
    logger: log,
    now,
    ackWithinMs: opts.ackWithinMs ?? 1500,
    messageContent,
    noteGuild(chatId, guildId) {
      if (noted.get(chatId) === guildId) return;
      noted.set(chatId, guildId);
      void opts.core.chats.inServer({ platform: "discord", chatId }, guildId).then((ok) => {
        if (!ok) noted.delete(chatId);
      });
    },
  };

  function track(what: string, fields: Record<string, unknown>, work: () => Promise<void>): void {
    const p = work()
      .catch((err: unknown) => {
        const code = (err as { code?: unknown }).code;
        log.error({ err, code, ...fields }, `discord ${what} failed`);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  async function route(interaction: Interaction): Promise<void> {
    if (interaction.isChatInputCommand()) await onChatInput(interaction, deps);
    else if (interaction.isAutocomplete()) await onAutocomplete(interaction, deps);
    else if (interaction.isButton()) await onButton(interaction, deps);
    else if (interaction.isMessageContextMenuCommand()) await onMessageCommand(interaction, deps);
  }

  const autodetect = channelAutodetect({ core: opts.core, actions, now, noteGuild: deps.noteGuild, logger: log });

  /** Every client's events, handled the same: the REST client's, and each shard's gateway client's. */
  function wire(c: Client): Client {
    c.on(Events.Error, (err) => log.error({ err }, "discord client error"));
    // Gateway socket errors arrive here, not as `error`; discord.js reconnects on its own.
    c.on(Events.ShardError, (err, shard) => log.warn({ err, shard }, "discord gateway error"));
    // The REST client's own rateLimited event fires when it waits ahead of a limit, not for a
    // 429 it received; a response is seen once per attempt, so every 429 counts.
    const onRateLimited = opts.onRateLimited;
    if (onRateLimited !== undefined) {
      c.rest.on(RESTEvents.Response, (request, response) => {
        if (response.status !== 429) return;
        const seconds = Number(response.headers.get("retry-after"));
        const route = request.route.replace(/\d{15,}/g, ":id");
        try {
          onRateLimited(route, Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0);
        } catch (err) {
          log.warn({ err, route }, "onRateLimited failed");
        }
      });
    }
    c.on(Events.ShardDisconnect, (event, shard) => {
      lastCloseCode = event.code;
      log.warn({ code: event.code, shard }, "discord gateway disconnected");
    });
    c.on(Events.InteractionCreate, (interaction) => {
      if (stopping) return;
      const fields = { interaction: interaction.id, type: interaction.type, channel: interaction.channelId };
      track("interaction", fields, () => route(interaction));
    });
    c.on(Events.GuildDelete, (guild) => {
      // discord.js emits this only when the bot left or was removed, not for an outage.
      track("guild removal", { guild: guild.id }, async () => {
        // After a re-invite its channels must be noted again, or the next removal misses them.
        membership.delete(guild.id);
        const channels = [...noted.entries()].filter(([, g]) => g === guild.id).map(([chatId]) => chatId);
        for (const chatId of channels) noted.delete(chatId);
        await opts.core.chats.leftServer(guild.id);
      });
    });
    // A deleted channel's feeds, digests and alerts go at once, not at their next post's 404.
    // discord.js tells of channels it has cached, which are all of a server's from its GUILD_CREATE;
    // a thread comes as its own event, cached or not.
    const channelRemoved = (channel: { id: string }) => {
      track("channel removal", { channel: channel.id }, async () => {
        noted.delete(channel.id);
        await opts.core.chats.left({ platform: "discord", chatId: channel.id });
      });
    };
    c.on(Events.ChannelDelete, channelRemoved);
    c.on(Events.ThreadDelete, channelRemoved);
    if (messageContent) {
      c.on(Events.MessageCreate, (message) => {
        if (stopping) return;
        track("auto-detect", { channel: message.channelId }, () => autodetect(message));
      });
    }
    return c;
  }
  wire(client);

  // Read when the adapter is built: a discord.js without the path stops the start, not the first interaction.
  const dispatch = opts.publicKey === undefined ? undefined : interactionDispatcher(client);

  async function startGateway(): Promise<void> {
    try {
      await client.login(opts.token);
    } catch (err) {
      await client.destroy().catch(() => undefined);
      throw loginFailure(err, opts.token, apiRoot, lastCloseCode);
    }
    log.info({ user: client.user?.id, guilds: client.guilds.cache.size, shards: fixedShards?.ids, messageContent }, "discord connected");
  }

  async function startLeased(lease: NonNullable<typeof leases>, shardCount: number): Promise<void> {
    leased = leasedShards({
      rest: client, token: opts.token, apiRoot, applicationId: opts.applicationId, shardCount, lease, log,
      gateway: (shard) => wire(clientFor({ ...settings, shards: { ids: [shard], count: shardCount } })),
      lastCloseCode: () => lastCloseCode,
    });
    await leased.start();
    log.info({ shards: leased.held(), shardCount, messageContent }, "discord connected");
  }

  return {
    platform: "discord",
    async start() {
      if (leases !== undefined && opts.shards !== undefined) await startLeased(leases, opts.shards.count);
      else await startGateway();
    },
    async stop() {
      stopping = true;
      await Promise.allSettled([...inFlight]);
      await leased?.stop();
      await client.destroy();
    },
    isReady: () => !stopping && (leases === undefined ? client.isReady() : (leased?.ready() ?? true)),
    shards: () => (leases === undefined ? [...(fixedShards?.ids ?? [])] : (leased?.held() ?? [])),
    ...(opts.publicKey === undefined || dispatch === undefined
      ? {}
      : {
          interactions: {
            path: INTERACTIONS_PATH,
            handler: createInteractionsEndpoint({
              publicKey: opts.publicKey,
              callbacks,
              logger: log,
              deliver(payload) {
                if (stopping) return false;
                dispatch(payload);
                return true;
              },
            }),
          },
        }),
    async send(chatId: string, reply: Reply): Promise<SendOutcome> {
      const message = render(chatId, reply);
      return "kind" in message ? message : postToChannel(client.rest, chatId, message, inServer);
    },

    /**
     * The channel's turn and the shared rate's slot are taken here, before the caller claims the
     * post: after the claim the request passes the gate without a Redis round trip. discord.js still queues it behind
     * a post to the same channel in flight in this process, and refuses it at once if the
     * channel's bucket is spent (rejectOnRateLimit): no network wait lies after the claim.
     * Rejects when the shared rate cannot be reached; nothing was claimed then.
     */
    async prepareSend(chatId: string, reply: Reply): Promise<PreparedSend> {
      const message = render(chatId, reply);
      if ("kind" in message) return { outcome: message };
      await gate?.reserve("POST", Routes.channelMessages(chatId));
      return { send: () => postToChannel(client.rest, chatId, message, inServer) };
    },
  };
}
