/**
 * Gateway and REST payloads as Discord sends them, built for the fake Discord server: just
 * the fields discord.js 14 reads, with ids from one increasing snowflake counter.
 */

type Json = Record<string, unknown>;

/** Interaction types (https://discord.com/developers/docs/interactions/receiving-and-responding). */
export const InteractionKind = { command: 2, component: 3, autocomplete: 4 } as const;

/** Application command option types used by the fake's helpers. */
export const OptionType = { string: 3, integer: 4, number: 10, attachment: 11 } as const;

/** Permission bits the adapter checks for admins. */
export const Permission = {
  manageChannels: 1n << 4n,
  manageGuild: 1n << 5n,
  sendMessages: 1n << 11n,
  viewChannel: 1n << 10n,
} as const;

let counter = 0n;
const base = 1_300_000_000_000_000_000n;

/** A fresh snowflake-looking id, unique within the process. */
export function snowflake(): string {
  counter += 1n;
  return String(base + counter);
}

/** A user as Discord describes one. */
export interface FakeUser {
  id: string;
  username: string;
  /** The display name the user chose (free text, so a test's hostile name goes here). */
  globalName?: string;
  bot?: boolean;
}

export function userJson(user: FakeUser): Json {
  return {
    id: user.id,
    username: user.username,
    discriminator: "0",
    global_name: user.globalName ?? null,
    avatar: null,
    bot: user.bot ?? false,
  };
}

/** A stored message, as the fake answers it to GET/POST/PATCH and puts in interactions. */
export interface FakeMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: Json;
  content: string;
  embeds: Json[];
  components: Json[];
  attachments: Json[];
  flags: number;
  [key: string]: unknown;
}

export function messageJson(opts: {
  channelId: string;
  guildId?: string;
  author: FakeUser;
  content?: string;
  embeds?: Json[];
  components?: Json[];
  attachments?: Json[];
  flags?: number;
  interactionId?: string;
}): FakeMessage {
  const id = snowflake();
  return {
    id,
    type: opts.interactionId === undefined ? 0 : 20,
    channel_id: opts.channelId,
    ...(opts.guildId === undefined ? {} : { guild_id: opts.guildId }),
    author: userJson(opts.author),
    content: opts.content ?? "",
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: opts.attachments ?? [],
    embeds: opts.embeds ?? [],
    components: opts.components ?? [],
    pinned: false,
    flags: opts.flags ?? 0,
  };
}

/** Where an interaction happens and who starts it. */
export interface InteractionPlace {
  /** Default "500000000000000001". */
  channelId?: string;
  /** Omit for a direct message. Default "400000000000000001". */
  guildId?: string | null;
  /** Default a user "trader". */
  user?: FakeUser;
  /** The member's permissions in the channel. Default view + send messages (not an admin). */
  permissions?: bigint;
  /** The caller's client language (`locale`). Default "en-US". */
  locale?: string;
  /** The server's language (`guild_locale`, servers only). Default "en-US". */
  guildLocale?: string;
}

export const DEFAULT_CHANNEL = "500000000000000001";
export const DEFAULT_GUILD = "400000000000000001";
export const DEFAULT_USER: FakeUser = { id: "600000000000000001", username: "trader" };

/** The common part of every INTERACTION_CREATE payload. */
export function interactionJson(opts: {
  applicationId: string;
  type: number;
  data: Json;
  place: InteractionPlace;
  message?: FakeMessage;
}): Json & { id: string; token: string } {
  const channelId = opts.place.channelId ?? DEFAULT_CHANNEL;
  const guildId = opts.place.guildId === undefined ? DEFAULT_GUILD : opts.place.guildId;
  const user = userJson(opts.place.user ?? DEFAULT_USER);
  const permissions = String(opts.place.permissions ?? Permission.viewChannel | Permission.sendMessages);
  const id = snowflake();
  const who =
    guildId === null
      ? { user }
      : {
          guild_id: guildId,
          member: { user, roles: [], permissions, joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0 },
        };
  return {
    id,
    token: `interaction-token-${id}`,
    application_id: opts.applicationId,
    type: opts.type,
    data: opts.data,
    channel: guildId === null ? { id: channelId, type: 1 } : { id: channelId, type: 0, guild_id: guildId, name: "general" },
    channel_id: channelId,
    ...who,
    ...(opts.message === undefined ? {} : { message: opts.message }),
    version: 1,
    app_permissions: String(Permission.viewChannel | Permission.sendMessages),
    locale: opts.place.locale ?? "en-US",
    ...(guildId === null ? {} : { guild_locale: opts.place.guildLocale ?? "en-US" }),
    entitlements: [],
    authorizing_integration_owners: guildId === null ? { "1": user.id } : { "0": guildId },
    context: guildId === null ? 1 : 0,
    attachment_size_limit: 10 * 1024 * 1024,
  };
}

/** A guild with text channels, as GUILD_CREATE carries it. */
export function guildJson(opts: { id: string; name?: string; channelIds?: string[]; botUser: FakeUser }): Json {
  return {
    id: opts.id,
    name: opts.name ?? "test server",
    icon: null,
    owner_id: DEFAULT_USER.id,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: [
      { id: opts.id, name: "@everyone", color: 0, hoist: false, position: 0, permissions: "0", managed: false, mentionable: false, flags: 0 },
    ],
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    system_channel_flags: 0,
    premium_tier: 0,
    preferred_locale: "en-US",
    nsfw_level: 0,
    joined_at: new Date().toISOString(),
    large: false,
    unavailable: false,
    member_count: 2,
    members: [],
    voice_states: [],
    presences: [],
    threads: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    channels: (opts.channelIds ?? [DEFAULT_CHANNEL]).map((id, position) => ({
      id,
      type: 0,
      guild_id: opts.id,
      name: `channel-${position}`,
      position,
      permission_overwrites: [],
      nsfw: false,
      parent_id: null,
    })),
  };
}
