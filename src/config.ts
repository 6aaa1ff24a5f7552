/**
 * Environment → one typed, validated `Config`. `loadConfig` is pure: `main` reads the
 * environment once (`readEnvironment`) and hands the result here; nothing is built at import.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { z } from "zod";
import { redactSecrets } from "./secrets.js";

/** A bad setting: `message` is one line naming the variable and what it expects. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  /** The environment variable at fault. */
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(message);
    this.variable = variable;
  }
}

export function isConfigError(e: unknown): e is ConfigError {
  return e instanceof ConfigError;
}

/** Base address and key of one version of the data service. */
export interface MarketEndpoint {
  /** http(s) base address without a trailing slash; paths such as `/v2/…` are appended. */
  baseUrl: string;
  key: string;
}

interface MarketPacing {
  /** Client-side requests per second. Default 5, the service's documented "normal" plan. */
  rps: number;
  /** Timeout of one request in ms. Default 10000. */
  timeoutMs: number;
  /** Compute units the key may spend per UTC day (`MARKET_API_DAILY_UNITS`); unset = not paced. */
  dailyUnits?: number;
  /** Time from a message's arrival to its answer, ms (`ANSWER_DEADLINE_MS`). Default 2500. */
  answerDeadlineMs: number;
}

/** No `MARKET_API_KEY`: the bot runs on the in-process sandbox and labels its data as demo. */
export interface DemoMarketConfig extends MarketPacing {
  mode: "demo";
}

export interface LiveMarketConfig extends MarketPacing {
  mode: "live";
  v2: MarketEndpoint;
  /** Version 1: its own address and key, each defaulting to version 2's. */
  v1: MarketEndpoint;
}

export type MarketConfig = DemoMarketConfig | LiveMarketConfig;

export interface TelegramConfig {
  token: string;
  /** Bot API root without a trailing slash. Default https://api.telegram.org. */
  apiRoot: string;
  /** Webhook mode when set (served on the HTTP port); long polling otherwise. */
  webhook: { url: string; secret: string | undefined } | undefined;
}

export interface DiscordConfig {
  token: string;
  applicationId: string;
  /** REST root without a trailing slash (discord.js appends `/v10/…`). Default https://discord.com/api. */
  apiRoot: string;
  /** Whether the privileged message-content intent is requested. Default false. */
  messageContent: boolean;
  /** Gateway shards (`DISCORD_SHARD_COUNT`, `DISCORD_SHARDS`): `ids` this worker runs, or, unset, claimed through Redis. */
  shards: { count: number; ids: number[] | undefined } | undefined;
  /** The application's Ed25519 public key (`DISCORD_PUBLIC_KEY`): interactions are also served over HTTP. */
  publicKey: string | undefined;
}

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface Config {
  market: MarketConfig;
  /** Undefined when `TELEGRAM_BOT_TOKEN` is not set. */
  telegram: TelegramConfig | undefined;
  /** Undefined when `DISCORD_BOT_TOKEN` is not set. */
  discord: DiscordConfig | undefined;
  /** SQLite file; `:memory:` keeps nothing. Default ./data/chainpulse.db. Unused when `databaseUrl` is set. */
  databasePath: string;
  /** PostgreSQL (`DATABASE_URL`) for the store instead of SQLite; undefined = SQLite at `databasePath`. */
  databaseUrl: string | undefined;
  /** Health, readiness and metrics server; undefined (off) unless `HTTP_PORT` is set (0: any free port, logged). */
  http: { port: number; host: string } | undefined;
  /** The operator's page at `/` on the HTTP port (`OPS_TOKEN`); undefined = off. */
  opsToken: string | undefined;
  /** Default info. */
  logLevel: LogLevel;
  /** How long a graceful stop may take before the process exits anyway. Default 10000. */
  shutdownTimeoutMs: number;
  /** Seed of the demo sandbox market. Default 1. */
  sandboxSeed: number;
  digest: {
    /** Telegram digest messages per second over all chats. Default 25. */
    telegramRate: number;
    /** Subscriptions one chat may hold. Default 10. */
    maxSubscriptions: number;
    /** Shortest schedule an admin may choose, in minutes. Default 15. */
    minIntervalMinutes: number;
  };
  launches: {
    /** New-launch posts one chat gets an hour; the rest are folded into one summary. Default 20. */
    perHour: number;
  };
  alerts: {
    /** Seconds between two price checks of every alert and watchlist. Default 30, at least 10. */
    checkSeconds: number;
    /** Shortest time between two firings of one `move` alert, minutes. Default 15. */
    cooldownMinutes: number;
    /** Alerts one chat may hold. Default 20. */
    maxPerChat: number;
    /** Tokens one chat's watchlist may hold. Default 50. */
    watchlistMax: number;
  };
  calls: {
    /** Days a call of a token stands in a chat before another member can call it (`CALLS_WINDOW_DAYS`). Default 30. */
    windowDays: number;
    /** Minutes between two sweeps that read called tokens' K-lines (`CALLS_SWEEP_MINUTES`). Default 60, at least 1. */
    sweepMinutes: number;
  };
  buys: {
    /** Seconds between two polls of a pair with recent trades (`BUYS_POLL_SECONDS`). Default 15, at least 5. */
    pollSeconds: number;
    /** Longest interval a quiet pair backs off to (`BUYS_MAX_POLL_SECONDS`). Default 300, at least `pollSeconds`. */
    maxPollSeconds: number;
    /** Tokens one chat's buy feed may follow (`BUYS_MAX_PER_CHAT`). Default 5. */
    maxPerChat: number;
    /** Share of `MARKET_API_RPS` and of the day's units the feed's polls may use (`BUYS_RATE_SHARE`). Default 0.5. */
    rateShare: number;
  };
  /** Redis shared by several processes (`REDIS_URL`); undefined keeps that state in process. */
  redisUrl: string | undefined;
  /** This process's name among the bot's workers (`WORKER_ID`): leases, /readyz, the metrics' `worker` label. Default `<hostname>-<pid>`. */
  workerId: string;
  /** Every secret value set (keys, tokens), for the logger to redact. */
  secrets: string[];
}

const SECRET_VARIABLES = [
  "MARKET_API_KEY",
  "MARKET_API_V1_KEY",
  "TELEGRAM_BOT_TOKEN",
  "TELEGRAM_WEBHOOK_SECRET",
  "DISCORD_BOT_TOKEN",
  "OPS_TOKEN",
] as const;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Reports `message` (which completes "<VARIABLE> …") unless `accept` returns a value. */
function check<T>(message: string, accept: (raw: string) => T | undefined) {
  return z.string().transform((raw, ctx) => {
    const value = accept(raw);
    if (value === undefined) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return value;
  });
}

function integer(min: number, max: number, what: string) {
  return check(`must be ${what}`, (raw) => {
    if (!/^\d+$/.test(raw)) return undefined;
    const n = Number(raw);
    return n >= min && n <= max ? n : undefined;
  });
}

function positiveNumber(max: number, what: string) {
  return check(`must be ${what}`, (raw) => {
    if (!/^\d+(\.\d+)?$/.test(raw)) return undefined;
    const n = Number(raw);
    return n > 0 && n <= max ? n : undefined;
  });
}

function parseUrl(raw: string, protocols: readonly string[]): URL | undefined {
  if (!URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return protocols.includes(url.protocol) ? url : undefined;
}

/**
 * An http(s) base address; a trailing slash is dropped since paths are appended to it. A query,
 * fragment or user:password would be lost or refused once paths are appended: refused here.
 */
const baseUrl = z.string().transform((raw, ctx) => {
  const url = parseUrl(raw, ["http:", "https:"]);
  const wrong = !url
    ? "must be an http(s) URL such as https://api.example.com"
    : url.username || url.password
      ? "must not carry a user:password (the key goes in its own variable)"
      : url.search || url.hash || raw.includes("?") || raw.includes("#")
        ? "must be a base address without a query or fragment, such as https://api.example.com"
        : undefined;
  if (wrong !== undefined) {
    // A query or userinfo is where a pasted credential would sit: such a value is not echoed.
    ctx.addIssue({ code: "custom", message: wrong, params: { echo: !url } });
    return z.NEVER;
  }
  return raw.replace(/\/+$/, "");
});

/** An API root the platform library appends paths to: it refuses a trailing slash, and so do we. */
function apiRoot(variable: string) {
  return z.string().transform((raw, ctx) => {
    if (!parseUrl(raw, ["http:", "https:"])) {
      ctx.addIssue({ code: "custom", message: "must be an http(s) URL" });
      return z.NEVER;
    }
    if (raw.endsWith("/")) {
      const fixed = raw.replace(/\/+$/, "");
      ctx.addIssue({
        code: "custom",
        // The fix is shown whole, but never a user:password in it.
        message: `must not end with a slash: set ${variable}=${withoutUserinfo(fixed)}`,
        params: { echo: false },
      });
      return z.NEVER;
    }
    return raw;
  });
}

/**
 * The `user:password` of a URL as written, parseable or not: everything between `://` and the
 * last `@`. A password with `#`, `/` or `?` is cut short by a URL parser (or makes it fail), so
 * the text is read as written, not as parsed.
 */
function userinfo(raw: string): string | undefined {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(.*)@/s.exec(raw);
  return m?.[1] === "" ? undefined : m?.[1];
}

/** `raw` with its user:password, if any, shown as `***`. */
function withoutUserinfo(raw: string): string {
  const info = userinfo(raw);
  return info === undefined ? raw : raw.replace(`${info}@`, "***@");
}

/** A URL that may carry a user:password: its scheme checked, and a password a parser would misread refused with the fix. */
function credentialUrl(message: string, protocols: readonly string[]) {
  return z.string().transform((raw, ctx) => {
    const info = userinfo(raw);
    if (info !== undefined && /[#/?]/.test(info)) {
      ctx.addIssue({ code: "custom", message: "has a user:password with # / or ? in it: write them percent-encoded (%23, %2F, %3F)" });
      return z.NEVER;
    }
    const url = parseUrl(raw, protocols);
    // The URL parser refuses a port past 65535 like any malformed URL, and takes port 0, which
    // no server listens on: say which part is wrong.
    const port = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(?:\[[^\]]*\]|[^:/?#]*):(\d+)(?:[/?#]|$)/i.exec(raw)?.[1];
    const badPort = port !== undefined && (Number(port) > 65_535 || Number(port) === 0);
    if (url === undefined || badPort) {
      ctx.addIssue({ code: "custom", message: badPort ? `has the port ${port}: a port is 1–65535` : message });
      return z.NEVER;
    }
    return raw;
  });
}

const token = (what: string, pattern: RegExp) => check(`must be ${what}`, (raw) => (pattern.test(raw) ? raw : undefined));

/** Sent as a header value: anything outside printable ASCII would fail every request. */
const apiKey = token("an API key of printable ASCII characters without spaces", /^[\x21-\x7E]+$/);

const schema = z.object({
  MARKET_API_KEY: apiKey.optional(),
  MARKET_API_URL: baseUrl.optional(),
  MARKET_API_V1_URL: baseUrl.optional(),
  MARKET_API_V1_KEY: apiKey.optional(),
  MARKET_API_RPS: positiveNumber(1000, "requests per second above 0 and at most 1000 (plans: 1, 5 or 20)").default(5),
  MARKET_TIMEOUT_MS: integer(100, 600_000, "a timeout in milliseconds from 100 to 600000").default(10_000),
  MARKET_API_DAILY_UNITS: integer(1, 1_000_000_000_000, "the plan's compute units per day, a whole number from 1 to 1000000000000 (10^12)").optional(),
  ANSWER_DEADLINE_MS: integer(500, 60_000, "a time in milliseconds from 500 to 60000").default(2_500),

  TELEGRAM_BOT_TOKEN: token("a bot token from @BotFather, like 123456789:AAE…", /^\d+:[A-Za-z0-9_-]+$/).optional(),
  TELEGRAM_API_ROOT: apiRoot("TELEGRAM_API_ROOT").default("https://api.telegram.org"),
  // The bot appends /telegram/<secret path> to it: after a query or fragment that path would be
  // lost, Telegram would post to the root, and every update would be answered 200 and dropped.
  TELEGRAM_WEBHOOK_URL: check("must be an https URL on port 443, 80, 88 or 8443 (the ports Telegram calls), without a query or fragment", (raw) => {
    const url = parseUrl(raw, ["https:"]);
    return url && ["", "443", "80", "88", "8443"].includes(url.port) && url.search === "" && url.hash === "" && !/[?#]/.test(raw) ? raw : undefined;
  }).optional(),
  TELEGRAM_WEBHOOK_SECRET: token("1–256 characters of A-Z, a-z, 0-9, _ and -", /^[A-Za-z0-9_-]{1,256}$/).optional(),

  DISCORD_BOT_TOKEN: token("a bot token without spaces", /^\S+$/).optional(),
  DISCORD_APPLICATION_ID: token("an application id (a snowflake: 17–20 digits)", /^\d{17,20}$/).optional(),
  DISCORD_API_ROOT: apiRoot("DISCORD_API_ROOT").default("https://discord.com/api"),
  DISCORD_MESSAGE_CONTENT: check("must be true or false (also 1/0, yes/no)", (raw) => {
    const v = raw.toLowerCase();
    if (["true", "1", "yes"].includes(v)) return true;
    if (["false", "0", "no"].includes(v)) return false;
    return undefined;
  }).default(false),
  DISCORD_SHARD_COUNT: integer(1, 10_000, "the total number of gateway shards, a whole number from 1 to 10000").optional(),
  DISCORD_SHARDS: check("must be shard ids separated by commas, such as 0,1", (raw) =>
    /^\s*\d{1,5}(\s*,\s*\d{1,5})*\s*$/.test(raw) ? [...new Set(raw.split(",").map((id) => Number(id.trim())))] : undefined,
  ).optional(),
  DISCORD_PUBLIC_KEY: token("the application's public key, 64 hexadecimal digits (General Information in the developer portal)", /^[0-9a-fA-F]{64}$/).optional(),

  DATABASE_PATH: z.string().default("./data/chainpulse.db"),
  DATABASE_URL: credentialUrl("must be a postgres:// URL such as postgres://chainpulse:password@localhost:5432/chainpulse", ["postgres:", "postgresql:"]).optional(),
  HTTP_PORT: integer(0, 65_535, "a port number 0–65535").optional(),
  HTTP_HOST: token("a host name or IP address to listen on, such as 127.0.0.1 or 0.0.0.0", /^[A-Za-z0-9.:_[\]-]+$/).default(
    "127.0.0.1",
  ),
  OPS_TOKEN: token("at least 16 printable ASCII characters without spaces, such as the output of openssl rand -hex 32", /^[\x21-\x7E]{16,}$/).optional(),
  LOG_LEVEL: check(`must be one of ${LOG_LEVELS.join(", ")}`, (raw) =>
    LOG_LEVELS.find((level) => level === raw.toLowerCase()),
  ).default("info"),
  SHUTDOWN_TIMEOUT_MS: integer(100, 600_000, "a time in milliseconds from 100 to 600000").default(10_000),

  SANDBOX_SEED: integer(0, 4_294_967_295, "a whole number from 0 to 4294967295").default(1),

  DIGEST_TELEGRAM_RATE: positiveNumber(1000, "messages per second above 0 and at most 1000 (Telegram allows about 30)").default(
    25,
  ),
  DIGEST_MAX_SUBSCRIPTIONS: integer(1, 1000, "a whole number from 1 to 1000").default(10),
  DIGEST_MIN_INTERVAL_MINUTES: integer(1, 1440, "minutes from 1 to 1440").default(15),

  LAUNCHES_PER_HOUR: integer(1, 1000, "a whole number from 1 to 1000").default(20),

  ALERT_CHECK_SECONDS: integer(10, 3600, "seconds from 10 to 3600").default(30),
  ALERT_COOLDOWN_MINUTES: integer(0, 1440, "minutes from 0 to 1440").default(15),
  ALERTS_MAX_PER_CHAT: integer(1, 1000, "a whole number from 1 to 1000").default(20),
  WATCHLIST_MAX: integer(1, 1000, "a whole number from 1 to 1000").default(50),

  CALLS_WINDOW_DAYS: integer(1, 365, "days from 1 to 365").default(30),
  CALLS_SWEEP_MINUTES: integer(1, 1440, "minutes from 1 to 1440").default(60),
  BUYS_POLL_SECONDS: integer(5, 3600, "seconds from 5 to 3600").default(15),
  BUYS_MAX_POLL_SECONDS: integer(5, 86_400, "seconds from 5 to 86400, at least BUYS_POLL_SECONDS").default(300),
  BUYS_MAX_PER_CHAT: integer(1, 100, "a whole number from 1 to 100").default(5),
  BUYS_RATE_SHARE: positiveNumber(1, "a share of MARKET_API_RPS above 0 and at most 1, such as 0.5").default(0.5),

  // A user:password is Redis AUTH and belongs here; echo() never shows it.
  REDIS_URL: credentialUrl("must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379", ["redis:", "rediss:"])
    // ioredis reads the path as the database number and takes anything else for database 0.
    .refine((raw) => /^\/?(\d{1,2})?$/.test(new URL(raw).pathname), { message: "names a database that is not a number: end it with /0 to /15, or nothing" })
    .optional(),
  WORKER_ID: token("1 to 64 of letters, digits and . _ : -, such as worker-1", /^[A-Za-z0-9._:-]{1,64}$/).optional(),
});

type Variable = keyof typeof schema.shape;

/** Every variable `loadConfig` reads, in `.env.example` order. */
export const CONFIG_VARIABLES = Object.keys(schema.shape) as Variable[];

const ECHO_LIMIT = 80;

/** The value as the message may show it: never a secret, never URL credentials (parseable or not), one line. */
function echo(raw: string, secrets: readonly string[]): string {
  const info = userinfo(raw);
  const at = raw.lastIndexOf("@");
  // Without a scheme the user:password has no start to find: all before the last @ goes.
  const masked = info !== undefined ? withoutUserinfo(raw) : at >= 0 ? `***${raw.slice(at)}` : raw;
  let shown = redactSecrets(masked, [...secrets, ...(info === undefined ? [] : [info])]);
  if (shown.length > ECHO_LIMIT) shown = `${shown.slice(0, ECHO_LIMIT)}…`;
  return JSON.stringify(shown);
}

/**
 * Validates the environment into a `Config`. Empty values count as unset (a copied
 * `.env.example` has `KEY=` lines) and values are trimmed.
 * @throws ConfigError with one line naming the first bad variable; secrets are never shown.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const clean: Partial<Record<Variable, string>> = {};
  for (const name of CONFIG_VARIABLES) {
    const value = env[name]?.trim();
    if (value) clean[name] = value;
  }
  const secrets = SECRET_VARIABLES.flatMap((name) => clean[name] ?? []);

  const parsed = schema.safeParse(clean);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    const raw = clean[name as Variable];
    const secret = (SECRET_VARIABLES as readonly string[]).includes(name);
    const shown = raw !== undefined && !secret && issue?.code === "custom" && issue.params?.echo !== false;
    throw new ConfigError(name, `${name} ${issue?.message ?? "is not valid"}${shown ? `, got ${echo(raw, secrets)}` : ""}`);
  }
  const v = parsed.data;

  return {
    market: marketConfig(v),
    telegram: telegramConfig(v),
    discord: discordConfig(v),
    databasePath: v.DATABASE_PATH,
    databaseUrl: v.DATABASE_URL,
    http: v.HTTP_PORT === undefined ? undefined : { port: v.HTTP_PORT, host: v.HTTP_HOST },
    opsToken: opsToken(v),
    logLevel: v.LOG_LEVEL,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    sandboxSeed: v.SANDBOX_SEED,
    digest: {
      telegramRate: v.DIGEST_TELEGRAM_RATE,
      maxSubscriptions: v.DIGEST_MAX_SUBSCRIPTIONS,
      minIntervalMinutes: v.DIGEST_MIN_INTERVAL_MINUTES,
    },
    launches: { perHour: v.LAUNCHES_PER_HOUR },
    alerts: {
      checkSeconds: v.ALERT_CHECK_SECONDS,
      cooldownMinutes: v.ALERT_COOLDOWN_MINUTES,
      maxPerChat: v.ALERTS_MAX_PER_CHAT,
      watchlistMax: v.WATCHLIST_MAX,
    },
    calls: { windowDays: v.CALLS_WINDOW_DAYS, sweepMinutes: v.CALLS_SWEEP_MINUTES },
    buys: buysConfig(v),
    redisUrl: v.REDIS_URL,
    workerId: v.WORKER_ID ?? `${hostname()}-${process.pid}`,
    secrets: withTelegramSecretPart([...secrets, ...urlPassword(v.DATABASE_URL), ...urlPassword(v.REDIS_URL)]),
  };
}

type Values = z.output<typeof schema>;

function buysConfig(v: Values): Config["buys"] {
  if (v.BUYS_MAX_POLL_SECONDS < v.BUYS_POLL_SECONDS) {
    throw new ConfigError(
      "BUYS_MAX_POLL_SECONDS",
      `BUYS_MAX_POLL_SECONDS must be at least BUYS_POLL_SECONDS (${v.BUYS_POLL_SECONDS}), got ${v.BUYS_MAX_POLL_SECONDS}`,
    );
  }
  return { pollSeconds: v.BUYS_POLL_SECONDS, maxPollSeconds: v.BUYS_MAX_POLL_SECONDS, maxPerChat: v.BUYS_MAX_PER_CHAT, rateShare: v.BUYS_RATE_SHARE };
}

function required(variable: string, because: string): never {
  throw new ConfigError(variable, `${variable} is required ${because}`);
}

function marketConfig(v: Values): MarketConfig {
  const pacing = { rps: v.MARKET_API_RPS, timeoutMs: v.MARKET_TIMEOUT_MS, dailyUnits: v.MARKET_API_DAILY_UNITS, answerDeadlineMs: v.ANSWER_DEADLINE_MS };
  const key = v.MARKET_API_KEY;
  if (key === undefined) {
    if (v.MARKET_API_URL !== undefined) required("MARKET_API_KEY", "when MARKET_API_URL is set (unset both for demo data)");
    if (v.MARKET_API_V1_URL !== undefined) required("MARKET_API_KEY", "when MARKET_API_V1_URL is set");
    if (v.MARKET_API_V1_KEY !== undefined) required("MARKET_API_KEY", "when MARKET_API_V1_KEY is set");
    return { mode: "demo", ...pacing };
  }
  if (v.MARKET_API_URL === undefined) {
    required("MARKET_API_URL", "when MARKET_API_KEY is set: the service has no public default address");
  }
  return {
    mode: "live",
    v2: { baseUrl: v.MARKET_API_URL, key },
    // The versions differ by path prefix (/v2, /api/v1): one host serving both is the common
    // set-up, so v1 shares the v2 address unless it has its own.
    v1: { baseUrl: v.MARKET_API_V1_URL ?? v.MARKET_API_URL, key: v.MARKET_API_V1_KEY ?? key },
    ...pacing,
  };
}

function telegramConfig(v: Values): TelegramConfig | undefined {
  const token = v.TELEGRAM_BOT_TOKEN;
  if (token === undefined) {
    if (v.TELEGRAM_WEBHOOK_URL !== undefined) required("TELEGRAM_BOT_TOKEN", "when TELEGRAM_WEBHOOK_URL is set");
    return undefined;
  }
  if (v.TELEGRAM_WEBHOOK_URL !== undefined && v.HTTP_PORT === undefined) {
    required("HTTP_PORT", "when TELEGRAM_WEBHOOK_URL is set: the webhook is served on the bot's HTTP port");
  }
  return {
    token,
    apiRoot: v.TELEGRAM_API_ROOT,
    webhook:
      v.TELEGRAM_WEBHOOK_URL === undefined ? undefined : { url: v.TELEGRAM_WEBHOOK_URL, secret: v.TELEGRAM_WEBHOOK_SECRET },
  };
}

function discordConfig(v: Values): DiscordConfig | undefined {
  const token = v.DISCORD_BOT_TOKEN;
  if (token === undefined) return undefined;
  if (v.DISCORD_APPLICATION_ID === undefined) {
    required("DISCORD_APPLICATION_ID", "when DISCORD_BOT_TOKEN is set (General Information in the developer portal)");
  }
  if (v.DISCORD_PUBLIC_KEY !== undefined && v.HTTP_PORT === undefined) {
    required("HTTP_PORT", "when DISCORD_PUBLIC_KEY is set: Discord's interactions endpoint is served on the bot's HTTP port");
  }
  return {
    token,
    applicationId: v.DISCORD_APPLICATION_ID,
    apiRoot: v.DISCORD_API_ROOT,
    messageContent: v.DISCORD_MESSAGE_CONTENT,
    shards: discordShards(v),
    publicKey: v.DISCORD_PUBLIC_KEY?.toLowerCase(),
  };
}

function opsToken(v: Values): string | undefined {
  if (v.OPS_TOKEN !== undefined && v.HTTP_PORT === undefined) {
    required("HTTP_PORT", "when OPS_TOKEN is set: the operator's page is served on the bot's HTTP port");
  }
  return v.OPS_TOKEN;
}

function discordShards(v: Values): DiscordConfig["shards"] {
  const count = v.DISCORD_SHARD_COUNT;
  const ids = v.DISCORD_SHARDS;
  if (count === undefined) {
    if (ids !== undefined) required("DISCORD_SHARD_COUNT", "when DISCORD_SHARDS is set (the total the ids count within)");
    return undefined;
  }
  const outside = ids?.find((id) => id >= count);
  if (outside !== undefined) {
    throw new ConfigError("DISCORD_SHARDS", `DISCORD_SHARDS names shard ${outside}, but DISCORD_SHARD_COUNT=${count} numbers them 0 to ${count - 1}`);
  }
  return { count, ids };
}

/** The part of a Telegram token after the colon is the secret itself; redact it on its own too. */
/** The password of a DATABASE_URL or REDIS_URL, for the logger to redact (decoded and as written). */
function urlPassword(raw: string | undefined): string[] {
  const info = raw === undefined ? undefined : userinfo(raw);
  const colon = info?.indexOf(":") ?? -1;
  const password = info === undefined || colon < 0 ? "" : info.slice(colon + 1);
  if (password === "") return [];
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // A stray % is the password as written; it is redacted as such.
  }
  return [...new Set([password, decoded])];
}

function withTelegramSecretPart(secrets: string[]): string[] {
  const extra = secrets.flatMap((s) => {
    const match = /^\d+:([A-Za-z0-9_-]{8,})$/.exec(s);
    return match?.[1] ?? [];
  });
  return [...new Set([...secrets, ...extra])];
}

/**
 * The process environment over an optional `.env` file in `cwd` (default the current
 * directory): a variable set in the real environment wins over the file.
 */
export function readEnvironment(options: { cwd?: string } = {}): Record<string, string | undefined> {
  const file = join(options.cwd ?? process.cwd(), ".env");
  let fromFile: Record<string, string | undefined> = {};
  try {
    fromFile = parseEnv(readFileSync(file, "utf8"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new ConfigError(".env", `.env could not be read (${file}): ${(e as Error).message}`);
    }
  }
  return { ...fromFile, ...process.env };
}
