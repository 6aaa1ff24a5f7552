/** The Discord adapter's public surface, for `app/start-bot.ts`, the CLI and the poster. */
export { createDiscordAdapter, DEFAULT_DISCORD_API_ROOT, type DiscordAdapterOptions } from "./adapter.js";
export { registerCommands, type RegisterOptions, type RegisterResult } from "./register.js";
export { renderReplyEmbeds, type RenderedEmbeds } from "./embeds.js";
export { commandPayloads, TOKEN_CARD_COMMAND } from "./slash-commands.js";
export { createActionStore, type ActionStore } from "./buttons.js";
export { classifySendError } from "./send.js";
export { discordShardLease, discordWorkerOptions } from "./workers.js";
export type { DiscordAdapter } from "./adapter.js";
