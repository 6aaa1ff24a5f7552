import { hostname } from "node:os";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, loadConfig, readEnvironment, type Config } from "../src/config.js";

const KEY = "mk_7d1e5c0b9a8f4e3d";
const TG_TOKEN = "7123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
const DC_TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123";
const APP_ID = "1098765432109876543";
const live = { MARKET_API_KEY: KEY, MARKET_API_URL: "https://market.example.com" };

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(Object.keys(env))}`);
}

const DEFAULTS: Config = {
  market: { mode: "demo", rps: 5, timeoutMs: 10_000, answerDeadlineMs: 2_500 },
  telegram: undefined,
  discord: undefined,
  databasePath: "./data/chainpulse.db",
  databaseUrl: undefined,
  redisUrl: undefined,
  workerId: `${hostname()}-${process.pid}`,
  http: undefined,
  opsToken: undefined,
  logLevel: "info",
  shutdownTimeoutMs: 10_000,
  sandboxSeed: 1,
  digest: { telegramRate: 25, maxSubscriptions: 10, minIntervalMinutes: 15 },
  launches: { perHour: 20 },
  alerts: { checkSeconds: 30, cooldownMinutes: 15, maxPerChat: 20, watchlistMax: 50 },
  calls: { windowDays: 30, sweepMinutes: 60 },
  buys: { pollSeconds: 15, maxPollSeconds: 300, maxPerChat: 5, rateShare: 0.5 },
  secrets: [],
};

describe("loadConfig", () => {
  describe("buy feed", () => {
    it("reads the feed's poll times, limit and share of the plan", () => {
      expect(loadConfig({ BUYS_POLL_SECONDS: "20", BUYS_MAX_POLL_SECONDS: "20", BUYS_MAX_PER_CHAT: "3", BUYS_RATE_SHARE: "0.25" }).buys).toEqual({
        pollSeconds: 20, maxPollSeconds: 20, maxPerChat: 3, rateShare: 0.25,
      });
    });

    it("refuses a poll under 5 s, a longest poll under the poll, and a share outside (0, 1]", () => {
      expect(failure({ BUYS_POLL_SECONDS: "4" })).toMatchObject({ variable: "BUYS_POLL_SECONDS" });
      expect(failure({ BUYS_POLL_SECONDS: "30", BUYS_MAX_POLL_SECONDS: "20" }).message).toBe(
        "BUYS_MAX_POLL_SECONDS must be at least BUYS_POLL_SECONDS (30), got 20",
      );
      expect(failure({ BUYS_RATE_SHARE: "1.5" })).toMatchObject({ variable: "BUYS_RATE_SHARE" });
      expect(failure({ BUYS_RATE_SHARE: "0" })).toMatchObject({ variable: "BUYS_RATE_SHARE" });
    });
  });

  it("runs on demo data with every default when nothing is set", () => {
    expect(loadConfig({})).toEqual(DEFAULTS);
  });

  it("takes HTTP_PORT=0 as any free port, which the start logs", () => {
    expect(loadConfig({ HTTP_PORT: "0" }).http).toEqual({ port: 0, host: "127.0.0.1" });
  });

  it("treats empty and blank values as unset and trims the others", () => {
    expect(loadConfig({ MARKET_API_KEY: "", TELEGRAM_BOT_TOKEN: "   ", HTTP_PORT: " 8080 " })).toEqual({
      ...DEFAULTS,
      http: { port: 8080, host: "127.0.0.1" },
    });
  });

  describe("market", () => {
    it("goes live with a key and a URL, v1 on the same address and key unless told otherwise", () => {
      expect(loadConfig({ ...live, MARKET_API_RPS: "20", MARKET_TIMEOUT_MS: "2500" }).market).toEqual({
        mode: "live",
        v2: { baseUrl: "https://market.example.com", key: KEY },
        v1: { baseUrl: "https://market.example.com", key: KEY },
        rps: 20,
        timeoutMs: 2500,
        answerDeadlineMs: 2_500,
      });
    });

    it("gives v1 its own address and key when set, and drops trailing slashes of base URLs", () => {
      const shared = loadConfig({ ...live, MARKET_API_URL: "http://127.0.0.1:9000/", MARKET_API_V1_URL: "https://v1.example.com/" });
      expect(shared.market).toMatchObject({
        v2: { baseUrl: "http://127.0.0.1:9000", key: KEY },
        v1: { baseUrl: "https://v1.example.com", key: KEY },
      });
      const own = loadConfig({ ...live, MARKET_API_V1_URL: "https://v1.example.com", MARKET_API_V1_KEY: "v1-key-0000" });
      expect(own.market).toMatchObject({ v1: { key: "v1-key-0000" } });
      const keyOnly = loadConfig({ ...live, MARKET_API_V1_KEY: "v1-key-0000" });
      expect(keyOnly.market).toMatchObject({ v1: { baseUrl: "https://market.example.com", key: "v1-key-0000" } });
    });

    it("names MARKET_API_URL when a key comes without it", () => {
      expect(failure({ MARKET_API_KEY: KEY }).message).toBe(
        "MARKET_API_URL is required when MARKET_API_KEY is set: the service has no public default address",
      );
    });

    it("names MARKET_API_KEY when a URL comes without it, rather than silently serving demo data", () => {
      expect(failure({ MARKET_API_URL: "https://market.example.com" }).message).toBe(
        "MARKET_API_KEY is required when MARKET_API_URL is set (unset both for demo data)",
      );
      expect(failure({ MARKET_API_V1_URL: "https://v1.example.com" }).variable).toBe("MARKET_API_KEY");
    });

    it("keeps the pacing settings in demo mode too", () => {
      expect(loadConfig({ MARKET_API_RPS: "1", MARKET_TIMEOUT_MS: "500" }).market).toEqual({ mode: "demo", rps: 1, timeoutMs: 500, answerDeadlineMs: 2_500 });
    });

    it("reads the answer deadline and the plan's daily compute units, and refuses nonsense naming the variable", () => {
      expect(loadConfig({ ANSWER_DEADLINE_MS: "1500", MARKET_API_DAILY_UNITS: "300000" }).market).toMatchObject({ answerDeadlineMs: 1_500, dailyUnits: 300_000 });
      expect(failure({ ANSWER_DEADLINE_MS: "50" }).variable).toBe("ANSWER_DEADLINE_MS");
      expect(failure({ MARKET_API_DAILY_UNITS: "lots" }).variable).toBe("MARKET_API_DAILY_UNITS");
      expect(failure({ MARKET_API_DAILY_UNITS: "1000000000001" }).message).toMatch(/from 1 to 1000000000000/);
    });

    it("names the port of a REDIS_URL or DATABASE_URL past 65535, and keeps its password out", () => {
      const redis = failure({ REDIS_URL: "redis://:s3cret@cache.local:99999" });
      expect(redis.message).toBe(`REDIS_URL has the port 99999: a port is 1–65535, got "redis://***@cache.local:99999"`);
      const pg = failure({ DATABASE_URL: "postgres://bot:s3cret@db.local:70000/chainpulse" });
      expect(pg.message).toMatch(/^DATABASE_URL has the port 70000/);
      expect(`${redis.message} ${pg.message}`).not.toContain("s3cret");
      expect(failure({ REDIS_URL: "redis://cache.local:0" }).message).toMatch(/^REDIS_URL has the port 0: a port is 1–65535/);
      expect(failure({ DATABASE_URL: "postgres://bot:pw@db.local:0/chainpulse" }).message).toMatch(/^DATABASE_URL has the port 0/);
    });

    it("refuses a REDIS_URL whose database is not a number, which ioredis would take for database 0", () => {
      const bad = failure({ REDIS_URL: "redis://:s3cret@cache.local:6379/abc" });
      expect(bad.variable).toBe("REDIS_URL");
      expect(bad.message).toMatch(/^REDIS_URL names a database that is not a number/);
      expect(bad.message).not.toContain("s3cret");
      for (const ok of ["redis://cache.local:6379", "redis://cache.local:6379/", "rediss://cache.local:6379/3"]) expect(loadConfig({ REDIS_URL: ok }).redisUrl).toBe(ok);
    });
  });

  describe("telegram", () => {
    it("runs with a token on the public Bot API and long polling by default", () => {
      expect(loadConfig({ TELEGRAM_BOT_TOKEN: TG_TOKEN }).telegram).toEqual({
        token: TG_TOKEN,
        apiRoot: "https://api.telegram.org",
        webhook: undefined,
      });
    });

    it("takes a webhook with its secret, served on the HTTP port", () => {
      const config = loadConfig({
        TELEGRAM_BOT_TOKEN: TG_TOKEN,
        TELEGRAM_API_ROOT: "http://127.0.0.1:8081",
        TELEGRAM_WEBHOOK_URL: "https://bot.example.com:8443/telegram",
        TELEGRAM_WEBHOOK_SECRET: "s3cret_-Token",
        HTTP_PORT: "3000",
      });
      expect(config.telegram).toEqual({
        token: TG_TOKEN,
        apiRoot: "http://127.0.0.1:8081",
        webhook: { url: "https://bot.example.com:8443/telegram", secret: "s3cret_-Token" },
      });
    });

    it("says how to fix an API root with a trailing slash", () => {
      expect(failure({ TELEGRAM_API_ROOT: "https://tg.example.com/" }).message).toBe(
        "TELEGRAM_API_ROOT must not end with a slash: set TELEGRAM_API_ROOT=https://tg.example.com",
      );
    });

    it("names what a webhook needs besides its URL", () => {
      expect(failure({ TELEGRAM_WEBHOOK_URL: "https://bot.example.com/tg" }).message).toBe(
        "TELEGRAM_BOT_TOKEN is required when TELEGRAM_WEBHOOK_URL is set",
      );
      expect(failure({ TELEGRAM_BOT_TOKEN: TG_TOKEN, TELEGRAM_WEBHOOK_URL: "https://bot.example.com/tg" }).message).toBe(
        "HTTP_PORT is required when TELEGRAM_WEBHOOK_URL is set: the webhook is served on the bot's HTTP port",
      );
    });
  });

  describe("discord", () => {
    it("runs with a token and an application id on the public API, without message content", () => {
      expect(loadConfig({ DISCORD_BOT_TOKEN: DC_TOKEN, DISCORD_APPLICATION_ID: APP_ID }).discord).toEqual({
        token: DC_TOKEN,
        applicationId: APP_ID,
        apiRoot: "https://discord.com/api",
        messageContent: false,
      });
    });

    it("names DISCORD_APPLICATION_ID when the token comes without it", () => {
      expect(failure({ DISCORD_BOT_TOKEN: DC_TOKEN }).message).toBe(
        "DISCORD_APPLICATION_ID is required when DISCORD_BOT_TOKEN is set (General Information in the developer portal)",
      );
    });

    it.each([
      ["true", true],
      ["TRUE", true],
      ["1", true],
      ["yes", true],
      ["false", false],
      ["0", false],
      ["No", false],
    ])("reads DISCORD_MESSAGE_CONTENT=%s as %s", (raw, expected) => {
      const config = loadConfig({ DISCORD_BOT_TOKEN: DC_TOKEN, DISCORD_APPLICATION_ID: APP_ID, DISCORD_MESSAGE_CONTENT: raw });
      expect(config.discord?.messageContent).toBe(expected);
    });
  });

  it("reads state, ops, sandbox and digest settings", () => {
    const config = loadConfig({
      DATABASE_PATH: "/var/lib/chainpulse/bot.db",
      HTTP_PORT: "9464",
      HTTP_HOST: "0.0.0.0",
      LOG_LEVEL: "DEBUG",
      SHUTDOWN_TIMEOUT_MS: "3000",
      SANDBOX_SEED: "0",
      DIGEST_TELEGRAM_RATE: "12.5",
      DIGEST_MAX_SUBSCRIPTIONS: "3",
      DIGEST_MIN_INTERVAL_MINUTES: "60",
    });
    expect(config).toMatchObject({
      databasePath: "/var/lib/chainpulse/bot.db",
      http: { port: 9464, host: "0.0.0.0" },
      logLevel: "debug",
      shutdownTimeoutMs: 3000,
      sandboxSeed: 0,
      digest: { telegramRate: 12.5, maxSubscriptions: 3, minIntervalMinutes: 60 },
    });
  });

  it.each([
    ["MARKET_API_URL", "market.example.com", 'MARKET_API_URL must be an http(s) URL such as https://api.example.com, got "market.example.com"'],
    ["MARKET_API_V1_URL", "ftp://v1.example.com", 'MARKET_API_V1_URL must be an http(s) URL such as https://api.example.com, got "ftp://v1.example.com"'],
    ["MARKET_API_RPS", "0", 'MARKET_API_RPS must be requests per second above 0 and at most 1000 (plans: 1, 5 or 20), got "0"'],
    ["MARKET_API_RPS", "fast", 'MARKET_API_RPS must be requests per second above 0 and at most 1000 (plans: 1, 5 or 20), got "fast"'],
    ["MARKET_TIMEOUT_MS", "10s", 'MARKET_TIMEOUT_MS must be a timeout in milliseconds from 100 to 600000, got "10s"'],
    ["TELEGRAM_API_ROOT", "api.telegram.org", 'TELEGRAM_API_ROOT must be an http(s) URL, got "api.telegram.org"'],
    ["TELEGRAM_WEBHOOK_URL", "http://bot.example.com/tg", 'TELEGRAM_WEBHOOK_URL must be an https URL on port 443, 80, 88 or 8443 (the ports Telegram calls), without a query or fragment, got "http://bot.example.com/tg"'],
    ["TELEGRAM_WEBHOOK_URL", "https://bot.example.com:3000/tg", 'TELEGRAM_WEBHOOK_URL must be an https URL on port 443, 80, 88 or 8443 (the ports Telegram calls), without a query or fragment, got "https://bot.example.com:3000/tg"'],
    ["TELEGRAM_WEBHOOK_URL", "https://bot.example.com/?x=1", 'TELEGRAM_WEBHOOK_URL must be an https URL on port 443, 80, 88 or 8443 (the ports Telegram calls), without a query or fragment, got "https://bot.example.com/?x=1"'],
    ["TELEGRAM_WEBHOOK_URL", "https://bot.example.com/tg#a", 'TELEGRAM_WEBHOOK_URL must be an https URL on port 443, 80, 88 or 8443 (the ports Telegram calls), without a query or fragment, got "https://bot.example.com/tg#a"'],
    ["DISCORD_APPLICATION_ID", "my-app", 'DISCORD_APPLICATION_ID must be an application id (a snowflake: 17–20 digits), got "my-app"'],
    ["DISCORD_API_ROOT", "https://discord.com/api/", "DISCORD_API_ROOT must not end with a slash: set DISCORD_API_ROOT=https://discord.com/api"],
    ["TELEGRAM_API_ROOT", "http://u:tgpw@proxy.example.com/", "TELEGRAM_API_ROOT must not end with a slash: set TELEGRAM_API_ROOT=http://***@proxy.example.com"],
    ["DISCORD_MESSAGE_CONTENT", "maybe", 'DISCORD_MESSAGE_CONTENT must be true or false (also 1/0, yes/no), got "maybe"'],
    ["HTTP_PORT", "abc", 'HTTP_PORT must be a port number 0–65535, got "abc"'],
    ["HTTP_PORT", "-1", 'HTTP_PORT must be a port number 0–65535, got "-1"'],
    ["HTTP_PORT", "65536", 'HTTP_PORT must be a port number 0–65535, got "65536"'],
    ["HTTP_HOST", "local host", 'HTTP_HOST must be a host name or IP address to listen on, such as 127.0.0.1 or 0.0.0.0, got "local host"'],
    ["LOG_LEVEL", "verbose", 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    ["SHUTDOWN_TIMEOUT_MS", "-1", 'SHUTDOWN_TIMEOUT_MS must be a time in milliseconds from 100 to 600000, got "-1"'],
    ["SANDBOX_SEED", "1.5", 'SANDBOX_SEED must be a whole number from 0 to 4294967295, got "1.5"'],
    ["DIGEST_TELEGRAM_RATE", "-3", 'DIGEST_TELEGRAM_RATE must be messages per second above 0 and at most 1000 (Telegram allows about 30), got "-3"'],
    ["DIGEST_MAX_SUBSCRIPTIONS", "0", 'DIGEST_MAX_SUBSCRIPTIONS must be a whole number from 1 to 1000, got "0"'],
    ["DIGEST_MIN_INTERVAL_MINUTES", "2000", 'DIGEST_MIN_INTERVAL_MINUTES must be minutes from 1 to 1440, got "2000"'],
  ])("refuses %s=%s with one line naming it", (name, value, message) => {
    const error = failure({ [name]: value });
    expect(error.variable).toBe(name);
    expect(error.message).toBe(message);
  });

  it.each([
    ["MARKET_API_KEY", "key with spaces 9f8e7d", "MARKET_API_KEY must be an API key of printable ASCII characters without spaces", {}],
    ["MARKET_API_V1_KEY", "v1 key 9f8e7d", "MARKET_API_V1_KEY must be an API key of printable ASCII characters without spaces", live],
    ["TELEGRAM_BOT_TOKEN", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "TELEGRAM_BOT_TOKEN must be a bot token from @BotFather, like 123456789:AAE…", {}],
    ["TELEGRAM_WEBHOOK_SECRET", "has spaces 9f8e7d", "TELEGRAM_WEBHOOK_SECRET must be 1–256 characters of A-Z, a-z, 0-9, _ and -", {}],
    ["DISCORD_BOT_TOKEN", "Bot MTA5ODc2.x 9f8e7d", "DISCORD_BOT_TOKEN must be a bot token without spaces", {}],
  ])("refuses a malformed %s without showing its value", (name, value, message, others) => {
    const error = failure({ ...others, [name]: value });
    expect(error.message).toBe(message);
    expect(error.message).not.toContain("9f8e7d");
    expect(error.message).not.toContain("AAHdqTcv");
  });

  it("turns the operator's page on with OPS_TOKEN, keeps the token secret, and names what it needs", () => {
    const token = "0123456789abcdef0123";
    const config = loadConfig({ OPS_TOKEN: token, HTTP_PORT: "9464" });
    expect(config.opsToken).toBe(token);
    expect(config.secrets).toContain(token);
    expect(failure({ OPS_TOKEN: token }).message).toBe("HTTP_PORT is required when OPS_TOKEN is set: the operator's page is served on the bot's HTTP port");
    const short = failure({ OPS_TOKEN: "short", HTTP_PORT: "9464" });
    expect(short.message).toBe("OPS_TOKEN must be at least 16 printable ASCII characters without spaces, such as the output of openssl rand -hex 32");
    expect(short.message).not.toContain("short");
  });

  it("never shows a secret that was pasted into another variable", () => {
    const error = failure({ MARKET_API_KEY: KEY, MARKET_API_URL: `market.example.com?key=${KEY}` });
    expect(error.variable).toBe("MARKET_API_URL");
    expect(error.message).not.toContain(KEY);
  });

  it.each([
    ["MARKET_API_URL", "https://market.example.com/?plan=pro", "without a query or fragment"],
    ["MARKET_API_URL", "https://market.example.com#v2", "without a query or fragment"],
    ["MARKET_API_V1_URL", "https://user:hunter2@v1.example.com", "must not carry a user:password"],
  ])("refuses %s=%s, naming the variable in one line without echoing it", (name, value, says) => {
    const error = failure({ ...live, [name]: value });
    expect(error.variable).toBe(name);
    expect(error.message).toMatch(new RegExp(`^${name} .*${says}`));
    expect(error.message).not.toContain("hunter2");
    expect(error.message).not.toContain("plan=pro");
    expect(error.message).not.toContain("\n");
  });

  it.each(["MARKET_API_KEY", "MARKET_API_V1_KEY"])("refuses a %s with characters outside printable ASCII, without showing it", (name) => {
    const error = failure({ ...live, [name]: "ключ-9f3a" });
    expect(error.variable).toBe(name);
    expect(error.message).toBe(`${name} must be an API key of printable ASCII characters without spaces`);
  });

  it("hides the credentials of a URL it shows", () => {
    const error = failure({ MARKET_API_V1_URL: "ftp://user:hunter2@v1.example.com" });
    expect(error.message).not.toContain("hunter2");
    expect(error.message).not.toContain("user");
  });

  it("keeps every message on one line, whatever the value", () => {
    expect(failure({ LOG_LEVEL: "info\nwarn" }).message).toBe('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "info\\nwarn"');
  });

  it("lists every secret for the logger, with the secret half of the Telegram token", () => {
    const config = loadConfig({
      ...live,
      MARKET_API_V1_URL: "https://v1.example.com",
      MARKET_API_V1_KEY: "v1-key-0000",
      TELEGRAM_BOT_TOKEN: TG_TOKEN,
      TELEGRAM_WEBHOOK_URL: "https://bot.example.com/tg",
      TELEGRAM_WEBHOOK_SECRET: "hook-secret",
      HTTP_PORT: "3000",
      DISCORD_BOT_TOKEN: DC_TOKEN,
      DISCORD_APPLICATION_ID: APP_ID,
    });
    expect(new Set(config.secrets)).toEqual(
      new Set([KEY, "v1-key-0000", TG_TOKEN, "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "hook-secret", DC_TOKEN]),
    );
  });
});

describe("calls", () => {
  it("reads the window and the sweep's period, and refuses a sweep under a minute", () => {
    expect(loadConfig({ CALLS_WINDOW_DAYS: "7", CALLS_SWEEP_MINUTES: "15" }).calls).toEqual({ windowDays: 7, sweepMinutes: 15 });
    expect(() => loadConfig({ CALLS_SWEEP_MINUTES: "0" })).toThrow(/CALLS_SWEEP_MINUTES must be minutes from 1 to 1440/);
    expect(() => loadConfig({ CALLS_WINDOW_DAYS: "30d" })).toThrow(/CALLS_WINDOW_DAYS must be days from 1 to 365/);
  });
});

describe(".env.example", () => {
  const text = readFileSync(new URL("../.env.example", import.meta.url), "utf8");

  it("lists every variable the config reads, each under a comment", () => {
    const lines = text.split("\n");
    const listed = lines.flatMap((line, i) => {
      const name = /^([A-Z0-9_]+)=/.exec(line)?.[1];
      if (name === undefined) return [];
      expect(lines[i - 1], `${name} has a comment above it`).toMatch(/^#/);
      return [name];
    });
    expect(listed).toEqual(CONFIG_VARIABLES);
  });

  it("gives the defaults when copied to .env as it is", () => {
    expect(loadConfig(parseEnv(text))).toEqual(DEFAULTS);
  });
});

describe("readEnvironment", () => {
  const dirs: string[] = [];
  const name = "CHAINPULSE_CONFIG_TEST_WINS";
  afterEach(() => {
    delete process.env[name];
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function folder(): string {
    const dir = mkdtempSync(join(tmpdir(), "chainpulse-env-"));
    dirs.push(dir);
    return dir;
  }

  it("adds the .env file of the folder, with the real environment winning", () => {
    const dir = folder();
    writeFileSync(join(dir, ".env"), `# comment\nLOG_LEVEL=debug\n${name}=from-file\nQUOTED="two words"\n`);
    process.env[name] = "from-environment";

    const env = readEnvironment({ cwd: dir });

    expect(env.QUOTED).toBe("two words");
    expect(env[name]).toBe("from-environment");
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.LOG_LEVEL).toBe(process.env.LOG_LEVEL ?? "debug");
  });

  it("is the environment alone when there is no .env file", () => {
    expect(readEnvironment({ cwd: folder() })).toEqual({ ...process.env });
  });

  it("names .env when it cannot be read", () => {
    const dir = folder();
    mkdirSync(join(dir, ".env"));
    expect(() => readEnvironment({ cwd: dir })).toThrow(ConfigError);
    expect(() => readEnvironment({ cwd: dir })).toThrow(/^\.env could not be read/);
  });
});

describe("WORKER_ID", () => {
  it("names this worker among several, and defaults to the host name and process id", () => {
    expect(loadConfig({ WORKER_ID: "worker-2" }).workerId).toBe("worker-2");
    expect(loadConfig({}).workerId).toBe(`${hostname()}-${process.pid}`);
  });

  it("is refused with one line when it holds a space", () => {
    expect(failure({ WORKER_ID: "worker 2" }).message).toBe('WORKER_ID must be 1 to 64 of letters, digits and . _ : -, such as worker-1, got "worker 2"');
  });

  it("is refused with one line that says the length limit when it is longer than 64 characters", () => {
    const long = "w".repeat(65);
    expect(loadConfig({ WORKER_ID: "w".repeat(64) }).workerId).toBe("w".repeat(64));
    expect(failure({ WORKER_ID: long }).message).toBe(`WORKER_ID must be 1 to 64 of letters, digits and . _ : -, such as worker-1, got "${long}"`);
  });
});
