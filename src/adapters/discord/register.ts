/**
 * Publishes the slash commands with one bulk overwrite: to one server (instant, for
 * development) or globally (for release). Removed commands disappear, renamed ones are replaced.
 */
import { REST, Routes } from "discord.js";
import type { Command } from "../../core/command.js";
import { discordRestAgent } from "./rest-agent.js";
import { DEFAULT_DISCORD_API_ROOT } from "./adapter.js";
import { commandPayloads } from "./slash-commands.js";

export interface RegisterOptions {
  /** Bot token; never logged or shown. */
  token: string;
  applicationId: string;
  /** REST root without a trailing slash. Default https://discord.com/api. */
  apiRoot?: string;
  /** Register in this server only (updates at once); omit for global commands. */
  guildId?: string;
  /** The registry to publish. */
  commands: readonly Command[];
}

export interface RegisterResult {
  /** How many commands Discord now holds in that scope. */
  count: number;
  scope: "global" | { guildId: string };
}

/** Overwrites the application's commands in the chosen scope; rejects with Discord's error. */
export async function registerCommands(opts: RegisterOptions): Promise<RegisterResult> {
  const rest = new REST({ api: opts.apiRoot ?? DEFAULT_DISCORD_API_ROOT, agent: discordRestAgent() }).setToken(opts.token);
  const body = commandPayloads(opts.commands);
  const route =
    opts.guildId === undefined
      ? Routes.applicationCommands(opts.applicationId)
      : Routes.applicationGuildCommands(opts.applicationId, opts.guildId);
  const saved = (await rest.put(route, { body })) as unknown[];
  return { count: saved.length, scope: opts.guildId === undefined ? "global" : { guildId: opts.guildId } };
}
