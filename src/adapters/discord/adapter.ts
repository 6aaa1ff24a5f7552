/**
 * The Discord adapter: a discord.js client with minimal intents and bounded caches, wired to
 * the core. Every handler catches; the client has an `error` listener (without one, a rejected
 * handler kills the process); mentions are off on the client and on raw REST calls.
 */
import {
  Client,
  Events,
  GatewayCloseCodes,
  GatewayIntentBits,
  Options,
  RESTEvents,
  type Interaction,
  type Message,
} from "discord.js";
import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import type { BotCore } from "../../core/bot-core.js";
import type { ChatContext } from "../../core/command.js";
import type { Reply } from "../../core/reply.js";
import type { ButtonActionStore } from "../../store/types.js";
import type { PlatformAdapter, SendOutcome } from "../types.js";
import { createActionStore, type ActionStore } from "./buttons.js";
import { onAutocomplete, onButton, onChatInput, onMessageCommand, type InteractionDeps } from "./interactions.js";
import { NO_MENTIONS, renderMessage, replyOptions } from "./message.js";
import { discordRestAgent } from "./rest-agent.js";
import { postToChannel, rejectChannelPostsOnRateLimit } from "./send.js";

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
  /** Clock (epoch ms) for data ages in footers. Default Date.now. */
  now?: () => number;
  /**
   * Called for every 429 Discord's REST answers, including those discord.js then waits out and
   * retries, with the route (ids as `:id`) and the delay Discord asked for. For metrics.
   */
  onRateLimited?: (route: string, retryAfterMs: number) => void;
}

// A pasted address is at least 26 characters (Bitcoin-style base58 is the shortest family);
// anything shorter without a link cannot be one, so the core is not asked about it.
const MAYBE_TOKEN = /[0-9A-Za-z]{26,}|https?:\/\//;

function clientFor(opts: { apiRoot: string; messageContent: boolean }): Client {
  const intents = [GatewayIntentBits.Guilds];
  if (opts.messageContent) intents.push(GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent);
  return new Client({
    intents,
    allowedMentions: NO_MENTIONS,
    rest: { api: opts.apiRoot, rejectOnRateLimit: rejectChannelPostsOnRateLimit, agent: discordRestAgent() },
    // The bot reads interactions and (maybe) new messages: nothing else needs remembering.
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      ReactionManager: 0,
      PresenceManager: 0,
      VoiceStateManager: 0,
      GuildEmojiManager: 0,
      GuildStickerManager: 0,
      GuildScheduledEventManager: 0,
      GuildInviteManager: 0,
      GuildBanManager: 0,
      StageInstanceManager: 0,
      ThreadMemberManager: 0,
      AutoModerationRuleManager: 0,
      ApplicationCommandManager: 0,
      GuildMemberManager: { maxSize: 200, keepOverLimit: (m) => m.id === m.client.user.id },
      UserManager: { maxSize: 1000, keepOverLimit: (u) => u.id === u.client.user.id },
    }),
    sweepers: {
      ...Options.DefaultSweeperSettings,
      users: { interval: 3600, filter: () => (u) => u.id !== u.client.user.id },
      guildMembers: { interval: 3600, filter: () => (m) => m.id !== m.client.user.id },
    },
  });
}

/** What the operator reads when Discord refuses the privileged intent (gateway close 4014). */
export const DISALLOWED_INTENTS =
  "Discord refused the Message Content intent (gateway close 4014): enable it for the bot in the Discord developer portal (Bot → Privileged Gateway Intents), or set DISCORD_MESSAGE_CONTENT=false.";

function loginFailure(err: unknown, token: string, apiRoot: string, closeCode: number | undefined): Error {
  const code = (err as { code?: unknown }).code;
  const status = (err as { status?: unknown }).status;
  if (code === "TokenInvalid" || status === 401) {
    return new Error("Discord refused the bot token (401 Unauthorized); check DISCORD_BOT_TOKEN.");
  }
  // @discordjs/ws rejects the login with a bare "Used disallowed intents" that names no fix.
  if (closeCode === GatewayCloseCodes.DisallowedIntents || (err instanceof Error && /disallowed intents/i.test(err.message))) {
    return new Error(DISALLOWED_INTENTS);
  }
  const detail = (err instanceof Error ? err.message : String(err)).split(token).join("[token]");
  return new Error(`Could not connect to Discord at ${apiRoot}: ${detail}`);
}

/** Creates the Discord adapter; `start()` logs in, `send()` posts digests. */
export function createDiscordAdapter(opts: DiscordAdapterOptions): PlatformAdapter {
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
      store: opts.buttonActions,
      onStoreError: (e) => log.warn({ err: e instanceof Error ? e.message : String(e) }, "button action store failed; long buttons work in this process only"),
    });
  const client = clientFor({ apiRoot, messageContent });
  const inFlight = new Set<Promise<void>>();
  // Channels whose server is already noted: told to the core once per channel, not per command.
  const noted = new LRUCache<string, string>({ max: 10_000 });
  let stopping = false;
  let lastCloseCode: number | undefined;

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

  async function autodetect(message: Message): Promise<void> {
    if (message.author.bot || !message.inGuild() || !MAYBE_TOKEN.test(message.content)) return;
    deps.noteGuild(message.channelId, message.guildId);
    // The core answers only where the channel's auto-detect is on.
    const chat: ChatContext = {
      platform: "discord",
      chatId: message.channelId,
      userId: message.author.id,
      isPrivate: false,
      isAdmin: async () => false,
      guildId: message.guildId,
    };
    const reply: Reply | null = await opts.core.detect(chat, message.content);
    if (reply === null || reply.error !== undefined) return;
    const { embeds, components, files } = replyOptions(renderMessage(reply, { actions, now }));
    await message.reply({ embeds, components, files, allowedMentions: { ...NO_MENTIONS, repliedUser: false } });
  }

  client.on(Events.Error, (err) => log.error({ err }, "discord client error"));
  // Gateway socket errors arrive here, not as `error`; discord.js reconnects on its own.
  client.on(Events.ShardError, (err, shard) => log.warn({ err, shard }, "discord gateway error"));
  // The REST client's own rateLimited event fires when it waits ahead of a limit, not for a
  // 429 it received; a response is seen once per attempt, so every 429 counts.
  const onRateLimited = opts.onRateLimited;
  if (onRateLimited !== undefined) {
    client.rest.on(RESTEvents.Response, (request, response) => {
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
  client.on(Events.ShardDisconnect, (event, shard) => {
    lastCloseCode = event.code;
    log.warn({ code: event.code, shard }, "discord gateway disconnected");
  });
  client.on(Events.InteractionCreate, (interaction) => {
    if (stopping) return;
    const fields = { interaction: interaction.id, type: interaction.type, channel: interaction.channelId };
    track("interaction", fields, () => route(interaction));
  });
  client.on(Events.GuildDelete, (guild) => {
    // discord.js emits this only when the bot left or was removed, not for an outage.
    track("guild removal", { guild: guild.id }, async () => {
      // After a re-invite its channels must be noted again, or the next removal misses them.
      const channels = [...noted.entries()].filter(([, g]) => g === guild.id).map(([chatId]) => chatId);
      for (const chatId of channels) noted.delete(chatId);
      await opts.core.chats.leftServer(guild.id);
    });
  });
  if (messageContent) {
    client.on(Events.MessageCreate, (message) => {
      if (stopping) return;
      track("auto-detect", { channel: message.channelId }, () => autodetect(message));
    });
  }

  return {
    platform: "discord",
    async start() {
      try {
        await client.login(opts.token);
      } catch (err) {
        await client.destroy().catch(() => undefined);
        throw loginFailure(err, opts.token, apiRoot, lastCloseCode);
      }
      log.info({ user: client.user?.id, guilds: client.guilds.cache.size, messageContent }, "discord connected");
    },
    async stop() {
      stopping = true;
      await Promise.allSettled([...inFlight]);
      await client.destroy();
    },
    isReady: () => client.isReady() && !stopping,
    async send(chatId: string, reply: Reply): Promise<SendOutcome> {
      try {
        return await postToChannel(client.rest, chatId, renderMessage(reply, { actions, now }));
      } catch (err) {
        log.error({ err, chatId }, "discord send failed while rendering");
        return { kind: "failed", reason: "could not render the message" };
      }
    },
  };
}
