/**
 * `chainpulse discord register [--guild ID]`: publishes the slash commands, to one server
 * (instant, for development) or globally (for release; Discord may take a while to show them).
 * One line on success; one line naming the fix on failure; the token never printed.
 */
import { parseArgs } from "node:util";
import { DiscordAPIError } from "discord.js";
import { registerCommands } from "../adapters/discord/register.js";
import { ConfigError, loadConfig, readEnvironment } from "../config.js";
import { createCommandList } from "../core/commands/index.js";
import { digestCommands } from "../digest/commands.js";
import { redactSecrets } from "../secrets.js";
import { buysCommands } from "../buys/commands.js";

/** Where the command writes and what it reads; defaults are the process's own. */
export interface DiscordRegisterIo {
  out(line: string): void;
  err(line: string): void;
  /** Default `readEnvironment()` (the environment over `.env`). */
  env?: Record<string, string | undefined>;
}

const USAGE = "usage: chainpulse discord register [--guild ID]";

/** The lines `chainpulse discord register --help` prints below the usage. */
export const DISCORD_REGISTER_HELP: readonly string[] = [
  "Options:",
  "  --guild ID    publish to one server (its 17–20 digit id), where they show at once;",
  "                without it globally, which Discord may take a few minutes to show",
  "",
  "Needs DISCORD_BOT_TOKEN and DISCORD_APPLICATION_ID. Exit codes: 0 published, 1 Discord",
  "refused or could not be reached, 2 usage error, 78 configuration error.",
];

const processIo: DiscordRegisterIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

function guildFrom(argv: string[]): string | undefined {
  // parseArgs words a missing value as "Option '--guild <value>' argument missing"; the other commands say it shorter.
  const at = argv.indexOf("--guild");
  if (at >= 0 && (argv[at + 1] ?? "--").startsWith("--")) throw new TypeError("--guild needs a value");
  const { values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { guild: { type: "string" } } });
  const guild = values.guild;
  if (guild !== undefined && !/^\d{17,20}$/.test(guild)) throw new TypeError("--guild must be a server id (17–20 digits)");
  return guild;
}

function failureLine(err: unknown, guildId: string | undefined): string {
  if (err instanceof DiscordAPIError) {
    if (err.status === 401) return "Discord refused the bot token (401 Unauthorized); check DISCORD_BOT_TOKEN.";
    if (err.code === 50001 || err.status === 403) {
      return guildId === undefined
        ? "Discord refused access (Missing Access); check that DISCORD_APPLICATION_ID belongs to this bot token."
        : `Discord refused access to server ${guildId} (Missing Access); invite the bot there with the applications.commands scope, and check DISCORD_APPLICATION_ID.`;
    }
    if (err.code === 50035) return `Discord refused the command list as invalid: ${err.message}`;
    return `Discord refused the commands: ${err.status} ${String(err.code)} ${err.message}`;
  }
  return `Could not reach Discord: ${err instanceof Error ? err.message : String(err)}`;
}

/** Runs the subcommand; resolves to the exit code (0 ok, 1 refused, 2 usage, 78 configuration). */
export async function discordRegisterCommand(argv: string[], io: DiscordRegisterIo = processIo): Promise<number> {
  let guildId: string | undefined;
  try {
    guildId = guildFrom(argv);
  } catch (e) {
    io.err(`chainpulse discord register: ${e instanceof Error ? e.message : String(e)}`);
    io.err(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig(io.env ?? readEnvironment());
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.err(`chainpulse: ${e.message}`);
    return 78;
  }
  const discord = config.discord;
  if (discord === undefined) {
    io.err("chainpulse: DISCORD_BOT_TOKEN is not set; discord register needs it and DISCORD_APPLICATION_ID");
    return 78;
  }

  const commands = createCommandList([
    ...digestCommands({ maxPerChat: config.digest.maxSubscriptions, minIntervalMinutes: config.digest.minIntervalMinutes }),
    // The plan's share only words /buys' answer; the registration needs names and descriptions.
    ...buysCommands({ maxPerChat: config.buys.maxPerChat, pollSeconds: config.buys.pollSeconds, maxPollSeconds: config.buys.maxPollSeconds, budget: () => ({}) }),
  ]);
  try {
    const result = await registerCommands({
      token: discord.token,
      applicationId: discord.applicationId,
      apiRoot: discord.apiRoot,
      commands,
      ...(guildId === undefined ? {} : { guildId }),
    });
    io.out(
      result.scope === "global"
        ? `Registered ${result.count} commands globally; Discord may take a few minutes to show them everywhere.`
        : `Registered ${result.count} commands in server ${result.scope.guildId}; they are available now.`,
    );
    return 0;
  } catch (e) {
    const line = redactSecrets(failureLine(e, guildId), [discord.token]).replace(/\s*\n\s*/g, "; ");
    io.err(`chainpulse discord register: ${line}`);
    return 1;
  }
}
