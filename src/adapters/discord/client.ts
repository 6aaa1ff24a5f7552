/**
 * A discord.js client as the bot runs it: minimal intents, mentions off, caches bounded to
 * what the bot reads, REST through the shared agent, and (with several workers) identifies
 * spaced with the bot's other clients.
 */
import { Client, GatewayIntentBits, Options, type RESTOptions } from "discord.js";
import type { SharedRedis } from "../../redis/connection.js";
import { NO_MENTIONS } from "./message.js";
import { discordRestAgent } from "./rest-agent.js";
import { rejectChannelPostsOnRateLimit } from "./send.js";
import { sharedIdentifyThrottler } from "./shards.js";

export interface ClientSettings {
  apiRoot: string;
  messageContent: boolean;
  /** The bot user's id: the one user and member every cache keeps. */
  botId: string;
  makeRequest: NonNullable<RESTOptions["makeRequest"]>;
  shards?: { ids: number[]; count: number };
  /** Spaces identifies with the bot's other workers (several clients, several processes). */
  identify?: { redis: SharedRedis; scope: string };
}

export function clientFor(opts: ClientSettings): Client {
  const intents = [GatewayIntentBits.Guilds];
  if (opts.messageContent) intents.push(GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent);
  return new Client({
    intents,
    allowedMentions: NO_MENTIONS,
    ...(opts.shards ? { shards: opts.shards.ids, shardCount: opts.shards.count } : {}),
    ...(opts.identify === undefined ? {} : { ws: { buildIdentifyThrottler: sharedIdentifyThrottler(opts.identify.redis, opts.identify.scope) } }),
    rest: { api: opts.apiRoot, rejectOnRateLimit: rejectChannelPostsOnRateLimit, agent: discordRestAgent(), makeRequest: opts.makeRequest },
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
      GuildMemberManager: { maxSize: 200, keepOverLimit: (m) => m.id === opts.botId },
      UserManager: { maxSize: 1000, keepOverLimit: (u) => u.id === opts.botId },
    }),
    sweepers: {
      ...Options.DefaultSweeperSettings,
      users: { interval: 3600, filter: () => (u) => u.id !== opts.botId },
      guildMembers: { interval: 3600, filter: () => (m) => m.id !== opts.botId },
    },
  });
}
