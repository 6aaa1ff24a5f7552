/**
 * The `chainpulse` command: picks a subcommand and loads only its module, so that
 * `chainpulse sandbox` never loads discord.js or grammY.
 */
import { readFileSync } from "node:fs";
import { isConfigError, loadConfig, readEnvironment } from "./config.js";

/** Exit codes, as `--help` documents them. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  /** EX_CONFIG from sysexits.h. */
  config: 78,
} as const;

type Subcommand = (argv: string[]) => Promise<number>;

interface CommandEntry {
  usage: string;
  summary: string;
  /** Whether the environment is validated before the module loads (fail fast, before heavy imports). */
  needsConfig: boolean;
  load: () => Promise<Subcommand>;
  /** What `chainpulse <command> --help` prints after the usage and summary: its options, one a line. */
  details?: () => Promise<readonly string[]>;
}

// A Map, since the name is whatever was typed: `chainpulse constructor` must be unknown, not Object's.
const COMMANDS: ReadonlyMap<string, CommandEntry> = new Map(Object.entries({
  start: {
    usage: "start",
    summary: "run the bot (the default): Telegram, Discord, or the console chat when no bot token is set",
    needsConfig: true,
    load: async () => (await import("./cli/start.js")).startCommand,
    details: async () => (await import("./cli/start.js")).START_HELP,
  },
  ask: {
    usage: 'ask "<message>" [--json] [--out file.png] [--lang en|zh]',
    summary: "answer one message and exit: text, the reply as JSON, or its picture written to a file",
    needsConfig: true,
    load: async () => (await import("./cli/ask.js")).askCommand,
    details: async () => (await import("./cli/ask.js")).ASK_HELP,
  },
  sandbox: {
    usage: "sandbox [--host H] [--port N] [--key K] [--v1-key K] [--seed S] [--time T] [--faults F] [--quirks] [--rate-limit PLAN] [--daily-units N]",
    summary: "run the local stand-in for the market data service",
    needsConfig: false,
    load: async () => (await import("./cli/sandbox.js")).sandboxCommand,
    details: async () => (await import("./cli/sandbox.js")).SANDBOX_HELP,
  },
  "discord register": {
    usage: "discord register [--guild ID]",
    summary: "publish the slash commands: globally, or to one server at once with --guild",
    needsConfig: true,
    load: async () => (await import("./cli/discord-register.js")).discordRegisterCommand,
    details: async () => (await import("./cli/discord-register.js")).DISCORD_REGISTER_HELP,
  },
  "store migrate": {
    usage: "store migrate",
    summary: "bring the database (DATABASE_URL, else DATABASE_PATH) to this version's schema",
    needsConfig: true,
    load: async () => (await import("./cli/store.js")).storeMigrateCommand,
    details: async () => (await import("./cli/store.js")).STORE_MIGRATE_HELP,
  },
  "store copy": {
    usage: "store copy --to <postgres url>",
    summary: "copy an SQLite install's data (DATABASE_PATH) into PostgreSQL; safe to run again",
    needsConfig: true,
    load: async () => (await import("./cli/store.js")).storeCopyCommand,
    details: async () => (await import("./cli/store.js")).STORE_COPY_HELP,
  },
} satisfies Record<string, CommandEntry>));

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/** The text of `chainpulse --help`. */
export function helpText(): string {
  const lines = [...COMMANDS.values()].flatMap((c) => [`  chainpulse ${c.usage}`, `      ${c.summary}`]);
  return [
    "chainpulse — on-chain token market data for Telegram groups and Discord servers",
    "",
    "Usage: chainpulse [command] [options]",
    "",
    "Commands:",
    ...lines,
    "  chainpulse help | -h | --help",
    "      show this help; `chainpulse <command> --help` shows a command's options",
    "  chainpulse --version",
    "      print the version",
    "",
    "Settings come from environment variables and an optional .env file in the current",
    "directory (the environment wins); .env.example lists every variable with a comment.",
    "With no bot token and no MARKET_API_KEY, `start` opens the console chat on demo data.",
    "",
    `Exit codes: ${EXIT.ok} ok, ${EXIT.failure} failure, ${EXIT.usage} usage error, ${EXIT.config} configuration error.`,
    "",
  ].join("\n");
}

/** The text of `chainpulse <command> --help`. */
export async function commandHelpText(name: string): Promise<string> {
  const entry = COMMANDS.get(name);
  if (entry === undefined) throw new Error(`no command ${name}`);
  const details = (await entry.details?.()) ?? [];
  return [`Usage: chainpulse ${entry.usage}`, "", `  ${entry.summary}`, ...(details.length > 0 ? ["", ...details] : []), ""].join("\n");
}

const HELP_FLAGS = new Set(["help", "--help", "-h"]);

/** The text of `chainpulse store --help`: each store command's usage and what it does. */
export function storeHelpText(): string {
  const store = [...COMMANDS.values()].filter((c) => c.usage.startsWith("store "));
  return [
    ...store.map((c, i) => `${i === 0 ? "Usage: " : "       "}chainpulse ${c.usage}`),
    "",
    ...store.flatMap((c) => [`  chainpulse ${c.usage}`, `      ${c.summary}`]),
    "",
    "`chainpulse store <command> --help` shows a command's options and exit codes.",
    "",
  ].join("\n");
}

function usageError(message: string): number {
  process.stderr.write(`chainpulse: ${message} (see chainpulse --help)\n`);
  return EXIT.usage;
}

/** Which subcommand `argv` names and the arguments left for it; a string is a usage error. */
function pick(argv: string[]): { name: string; rest: string[] } | string {
  const [first, ...rest] = argv;
  if (first === undefined) return { name: "start", rest: [] };
  if (first === "discord") {
    const [sub, ...subRest] = rest;
    if (sub === "register") return { name: "discord register", rest: subRest };
    // `discord` has one command, so its help is that command's.
    if (sub !== undefined && HELP_FLAGS.has(sub)) return { name: "discord register", rest: ["--help"] };
    return sub === undefined ? "discord needs a command: discord register" : `unknown command "discord ${sub}"`;
  }
  if (first === "store") {
    const [sub, ...subRest] = rest;
    if (sub === "migrate" || sub === "copy") return { name: `store ${sub}`, rest: subRest };
    return sub === undefined ? "store needs a command: store migrate or store copy --to <postgres url>" : `unknown command "store ${sub}"`;
  }
  if (COMMANDS.has(first)) return { name: first, rest };
  return first.startsWith("-") ? `unknown option "${first}"` : `unknown command "${first}"`;
}

let heeding = false;

/**
 * A reader that went away (`chainpulse store copy | head -3`) is not the command's failure: its
 * work goes on and its exit code stands. Unheard, the pipe's EPIPE would end the process with a
 * stack trace.
 */
function heedGoneReader(): void {
  if (heeding) return;
  heeding = true;
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
  });
}

/**
 * Runs `chainpulse <argv>` and resolves to the exit code. A configuration error prints its
 * one line and gives 78; any other failure is left to the caller (`bin/chainpulse.js`).
 */
export async function main(argv: string[]): Promise<number> {
  heedGoneReader();
  const first = argv[0];
  if (first === "help" || first === "--help" || first === "-h") {
    process.stdout.write(helpText());
    return EXIT.ok;
  }
  if (first === "--version") {
    process.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }

  if (first === "store" && argv.length === 2 && HELP_FLAGS.has(argv[1]!)) {
    process.stdout.write(storeHelpText());
    return EXIT.ok;
  }

  const picked = pick(argv);
  if (typeof picked === "string") return usageError(picked);
  const entry = COMMANDS.get(picked.name);
  if (entry === undefined) return usageError(`unknown command "${picked.name}"`);
  // Help needs no settings: it answers before the environment is checked or the command loads.
  if (picked.rest.some((a) => a === "--help" || a === "-h")) {
    process.stdout.write(await commandHelpText(picked.name));
    return EXIT.ok;
  }

  try {
    if (entry.needsConfig) loadConfig(readEnvironment());
    const run = await entry.load();
    return await run(picked.rest);
  } catch (e) {
    if (!isConfigError(e)) throw e;
    process.stderr.write(`chainpulse: ${e.message}\n`);
    return EXIT.config;
  }
}
