import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { deferred } from "../deferred.js";
import { groupChat, fakeUser, privateChat, startFakeTelegram, type FakeTelegram } from "../fakes/telegram-api.js";
import { freePort } from "../engines/free-port.js";
import { spawnBot, tempDir, waitForHttp, type BotProcess } from "./bot-process.js";

let telegram: FakeTelegram | undefined;
let sandbox: Sandbox | undefined;
let bot: BotProcess | undefined;

afterEach(async () => {
  if (bot && bot.child.exitCode === null) {
    bot.child.kill("SIGKILL");
    await bot.exited;
  }
  await telegram?.close();
  await sandbox?.close();
  bot = telegram = sandbox = undefined;
});

interface Launched {
  base: string;
  telegram: FakeTelegram;
  sandbox: Sandbox;
  bot: BotProcess;
  secrets: string[];
}

/** A bot on its own fake Telegram and sandbox; the caller stops what it returns. */
async function launch(opts: { faults?: Parameters<Sandbox["setFaults"]>[0]; token?: string; env?: Record<string, string> } = {}): Promise<Launched> {
  const tg = await startFakeTelegram({ maxPollMs: 500 });
  const sb = await startSandbox({ faults: opts.faults });
  const dir = tempDir();
  const proc = spawnBot(
    {
      TELEGRAM_BOT_TOKEN: opts.token ?? tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      MARKET_API_KEY: sb.v2Key,
      MARKET_API_URL: sb.url,
      MARKET_API_V1_URL: sb.url,
      MARKET_API_V1_KEY: sb.v1Key,
      HTTP_PORT: "0",
      DATABASE_PATH: join(dir, "data", "bot.db"),
      WORKER_ID: "w1",
      ...opts.env,
    },
    { cwd: dir },
  );
  return { base: `http://127.0.0.1:${await proc.servedPort()}`, telegram: tg, sandbox: sb, bot: proc, secrets: [opts.token ?? tg.token, sb.v2Key, sb.v1Key] };
}

/** A bot of the test's own, stopped after it by the afterEach. */
async function start(opts: Parameters<typeof launch>[0] = {}): Promise<Launched> {
  const launched = await launch(opts);
  ({ telegram, sandbox, bot } = launched);
  return launched;
}

// One bot serves these tests in turn: each start of a process costs seconds of CPU, and what
// one test does (a command, a 429) is what the next one counts on or leaves alone.
/**
 * Each test starts one or two bot processes from dist/ and waits for their logs and answers: on
 * a busy machine a start alone can take most of vitest's default 30 s. A bound, not a measure.
 */
const BOT_PROCESS = { timeout: 90_000 };

/** The shared bot's operator's page token. */
const OPS_TOKEN = "ops-token-of-the-shared-bot";

describe("one bot process as operators run it, in turn", BOT_PROCESS, () => {
  let shared: Launched;
  beforeAll(async () => {
    shared = await launch({ env: { OPS_TOKEN } });
  });
  afterAll(async () => {
    if (shared.bot.child.exitCode === null && shared.bot.child.signalCode === null) {
      shared.bot.child.kill("SIGKILL");
      await shared.bot.exited;
    }
    await shared.telegram.close();
    await shared.sandbox.close();
  });

  it("serves /healthz, then /readyz once Telegram polls and the market answers", async () => {
    const { base } = shared;
    await waitForHttp(`${base}/healthz`, (r) => r.status === 200);
    const ready = await waitForHttp(`${base}/readyz`, (r) => r.status === 200);
    const body = (await ready.json()) as { checks: Record<string, unknown> };
    expect(body).toMatchObject({ status: "ready", notReady: [] });
    // A passing check carries no failure text; the worker's check names the leases it holds.
    expect(body.checks).toEqual({
      store: { ok: true }, market: { ok: true }, telegram: { ok: true },
      worker: { ok: true, detail: expect.stringMatching(/^w1 holds /) as unknown },
    });
  });

  it("moves its command and upstream counters in /metrics, and never shows a secret there", async () => {
    const { base, telegram: tg, secrets } = shared;
    await waitForHttp(`${base}/readyz`, (r) => r.status === 200);
    const user = fakeUser();
    const asked = tg.sendText(groupChat(), "/price pepe", { from: user });
    await tg.waitForSent((s) => s.replyTo === asked.message_id);
    const text = await (await waitForHttp(`${base}/metrics`, async (r) => (await r.text()).includes('command="price",outcome="ok"'))).text();
    // The bot's first command: each count is this one.
    expect(text).toMatch(/chainpulse_commands_total\{command="price",outcome="ok",worker="w1"\} 1/);
    expect(text).toMatch(/chainpulse_upstream_calls_total\{endpoint="search",outcome="ok",worker="w1"\} \d+/);
    expect(text).toMatch(/chainpulse_command_duration_seconds_count\{(?=[^}]*command="price")(?=[^}]*worker="w1")[^}]*\} 1\n/);
    expect(text).toMatch(/chainpulse_cache_lookups_total\{method="search",outcome="miss",worker="w1"\} \d+/);
    for (const s of secrets) expect(text).not.toContain(s);
  });

  it("serves only metrics the README's table explains, the buy feed's among them", async () => {
    const { base } = shared;
    await waitForHttp(`${base}/readyz`, (r) => r.status === 200);
    const text = await (await fetch(`${base}/metrics`)).text();
    const served = [...text.matchAll(/^# TYPE (chainpulse_\w+) /gm)].map((m) => m[1]);
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const explained = new Set([...readme.matchAll(/^\| `(chainpulse_\w+)` \|/gm)].map((m) => m[1]));
    // prom-client's process metrics share one row, `chainpulse_process_*`, `chainpulse_nodejs_*`.
    const ours = served.filter((m) => !/^chainpulse_(process|nodejs)_/.test(m ?? ""));
    expect(ours).toContain("chainpulse_buys_polls_total");
    expect(ours.filter((m) => !explained.has(m))).toEqual([]);
  });

  it("serves no allowance without MARKET_API_DAILY_UNITS and no Redis series without REDIS_URL, and its page says no allowance is set", async () => {
    const { base } = shared;
    await waitForHttp(`${base}/readyz`, (r) => r.status === 200);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain("chainpulse_market_units_spent_today");
    for (const absent of ["chainpulse_market_daily_units", "chainpulse_market_units_left", "chainpulse_redis_up", "chainpulse_redis_outages_total"]) {
      expect(text).not.toContain(absent);
    }
    const page = await (await fetch(`${base}/`, { headers: { authorization: `Bearer ${OPS_TOKEN}` } })).text();
    expect(page).toContain("No daily allowance is set");
    expect(page).not.toContain("Allowance:");
  });

  it("counts a 429 that Telegram answers to a reply, even one that is retried, in /metrics", async () => {
    const { base, telegram: tg } = shared;
    await waitForHttp(`${base}/readyz`, (r) => r.status === 200);
    const before = await (await fetch(`${base}/metrics`)).text();
    expect(before).not.toMatch(/chainpulse_platform_429_total\{[^}]*\} [1-9]/);
    // There at 0 from the start, and so are the buy feed's series: a dashboard shows none, not no data.
    expect(before).toMatch(/chainpulse_platform_429_total\{platform="telegram",worker="w1"\} 0\n/);
    expect(before).toMatch(/chainpulse_buys_posts_total\{platform="telegram",state="posted",worker="w1"\} 0\n/);
    expect(before).toMatch(/chainpulse_buys_swaps_total\{outcome="seen",worker="w1"\} 0\n/);
    tg.rateLimit({ method: "sendMessage", retryAfter: 1 });
    const asked = tg.sendText(groupChat(), "/price pepe", { from: fakeUser() });
    await tg.waitForSent((s) => s.replyTo === asked.message_id);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(/chainpulse_platform_429_total\{platform="telegram",worker="w1"\} 1\n/);
  });

  it("answers the command in hand when SIGTERM arrives, then exits 0", async () => {
    const { base, telegram: tg, sandbox: sb, bot: proc } = shared;
    await waitForHttp(`${base}/readyz`, (r) => r.status === 200);
    sb.setFaults([{ kind: "latency", ms: 1_500 }]);
    // Offsets this bot has confirmed so far: earlier tests' updates.
    const confirmed = Math.max(0, ...tg.calls.filter((c) => c.method === "getUpdates").map((c) => Number(c.payload.offset ?? 0)));
    const asked = tg.sendText(groupChat(), "/token pepe", { from: fakeUser() });
    // The poll after the one that delivered the update carries its offset: the command is in hand.
    await tg.waitFor((c) => c.method === "getUpdates" && Number(c.payload.offset ?? 0) > confirmed, { pending: true });
    proc.child.kill("SIGTERM");
    const reply = await tg.waitForSent((s) => s.replyTo === asked.message_id);
    expect(reply.text).toMatch(/PEPE/);
    expect(await proc.exited).toEqual({ code: 0, signal: null });
  });
});

describe("the bot process as operators run it", BOT_PROCESS, () => {
  it("says the market is not ready when it fails and nothing is cached yet", async () => {
    const { base } = await start({ faults: [{ kind: "http5xx", status: 503 }] });
    const notReady = async (r: Response) => ((await r.json()) as { notReady: string[] }).notReady;
    // Telegram connects within moments; the market stays down.
    const res = await waitForHttp(`${base}/readyz`, async (r) => r.status === 503 && (await notReady(r)).join() === "market");
    expect(await notReady(res)).toEqual(["market"]);
  });

  it("takes Telegram updates by webhook on the ops port, and refuses a wrong secret", async () => {
    const secret = "webhook_secret-for-test";
    const { base, telegram: tg } = await start({ env: { TELEGRAM_WEBHOOK_URL: "https://bot.example.com", TELEGRAM_WEBHOOK_SECRET: secret } });
    await waitForHttp(`${base}/readyz`, (r) => r.status === 200);
    expect(tg.webhook?.secret).toBe(secret);
    const hook = new URL(tg.webhook!.url);
    expect(hook.origin).toBe("https://bot.example.com");
    expect(hook.pathname).not.toContain(secret);
    const update = (id: number) => ({
      update_id: id,
      message: {
        message_id: id,
        date: Math.floor(Date.now() / 1000),
        chat: { id: 4242, type: "private", first_name: "Ann" },
        from: { id: 4242, is_bot: false, first_name: "Ann" },
        text: "/price pepe",
        entities: [{ type: "bot_command", offset: 0, length: 6 }],
      },
    });
    const post = (body: unknown, token: string) =>
      fetch(`${base}${hook.pathname}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": token },
        body: JSON.stringify(body),
      });
    expect((await post(update(1), "wrong")).status).toBe(401);
    // Delivered as Telegram does: the fake posts with the secret and does the call the answer carries.
    const delivery = tg.deliverByWebhook({ to: (url) => `${base}${new URL(url).pathname}` });
    try {
      const chat = privateChat(fakeUser());
      const asked = tg.sendText(chat, "/price pepe");
      const reply = await tg.waitForSent((m) => m.chatId === String(chat.id));
      expect(reply.replyTo).toBe(asked.message_id);
      expect(reply.text).toMatch(/PEPE/);
      expect(tg.sent.filter((m) => m.chatId === String(chat.id))).toHaveLength(1);
    } finally {
      delivery.stop();
    }
  });

  it("exits non-zero with one line and no token when Telegram refuses the token", async () => {
    const badToken = "999999:REFUSED-token-value-for-test";
    const { bot: proc } = await start({ token: badToken });
    const { code } = await proc.exited;
    expect(code).not.toBe(0);
    const plain = proc
      .stderr()
      .split("\n")
      .filter((l) => l.startsWith("chainpulse:"));
    expect(plain).toHaveLength(1);
    expect(plain[0]).toMatch(/token/i);
    expect(proc.stderr() + proc.stdout()).not.toContain(badToken);
    expect(proc.stderr() + proc.stdout()).not.toContain("REFUSED-token-value-for-test");
  });
});

describe("signals during start-up", BOT_PROCESS, () => {
  it("stops gracefully with exit 0 on a SIGTERM that arrives while it is still starting", async () => {
    telegram = await startFakeTelegram({ maxPollMs: 500 });
    const dir = tempDir();
    bot = spawnBot(
      { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot, DATABASE_PATH: join(dir, "data", "bot.db") },
      { cwd: dir },
    );
    // Logged before the demo market is even built.
    await bot.waitForLog(/showing demo data/);
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  });
});

/** A Bot API that takes connections and never answers: Telegram unreachable behind a black hole. */
async function silentBotApi(): Promise<{ apiRoot: string; asked: Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const heard = deferred();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("data", (d: Buffer) => {
      if (d.toString().includes("/getMe")) heard.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    apiRoot: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked: heard.promise,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("a stop while Telegram cannot be reached", BOT_PROCESS, () => {
  const token = "123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

  it("ends grammY's getMe retries and exits 0 on SIGTERM when nothing listens at the Bot API", async () => {
    const dir = tempDir();
    const closed = `http://127.0.0.1:${await freePort()}`;
    // A long bound for the stop: only a stop that never ends the retries would reach it.
    bot = spawnBot({ TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_ROOT: closed, SHUTDOWN_TIMEOUT_MS: "60000", DATABASE_PATH: join(dir, "data", "bot.db") }, { cwd: dir });
    // The log says why (nothing listens), and never the token that is in the call's URL.
    await bot.waitForLog(/"method":"getMe","err":"[^"]*ECONNREFUSED[^"]*".*telegram call failed/);
    expect(bot.stderr() + bot.stdout()).not.toContain(token.split(":")[1]);
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(bot.stderr()).not.toMatch(/^chainpulse:/m);
  });

  it("abandons a getMe that hangs and exits 0 on SIGTERM", async () => {
    const api = await silentBotApi();
    try {
      const dir = tempDir();
      bot = spawnBot({ TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_ROOT: api.apiRoot, SHUTDOWN_TIMEOUT_MS: "60000", DATABASE_PATH: join(dir, "data", "bot.db") }, { cwd: dir });
      await api.asked;
      bot.child.kill("SIGTERM");
      expect(await bot.exited).toEqual({ code: 0, signal: null });
      expect(bot.stderr()).not.toMatch(/^chainpulse:/m);
    } finally {
      await api.close();
    }
  });
});

describe("start-up as a supervisor sees it", BOT_PROCESS, () => {
  it("tells an operator who logs only warnings that it shows demo data", async () => {
    const dir = tempDir();
    bot = spawnBot({ LOG_LEVEL: "warn", DATABASE_PATH: join(dir, "data", "bot.db") }, { cwd: dir, stdin: "" });
    const line = await bot.waitForLog(/showing demo data/);
    expect(JSON.parse(line)).toMatchObject({ level: 40 });
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  });
});

/** Plants the record of failed starts the guard reads, as if the last one failed `agoMs` ago. */
function plantFailures(dir: string, failures: number, agoMs: number): void {
  mkdirSync(join(dir, "data"), { recursive: true });
  writeFileSync(join(dir, "data", ".start-failures.json"), JSON.stringify({ failures, lastFailureAt: Date.now() - agoMs }));
}

describe("the crash-loop guard", BOT_PROCESS, () => {
  async function startAfterFailures(failures: number, agoMs: number) {
    telegram = await startFakeTelegram({ maxPollMs: 500 });
    const dir = tempDir();
    plantFailures(dir, failures, agoMs);
    bot = spawnBot(
      { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot, HTTP_PORT: "0", DATABASE_PATH: join(dir, "data", "bot.db") },
      { cwd: dir },
    );
    await bot.waitForLog(/waiting before logging in again/);
    return { base: `http://127.0.0.1:${await bot.servedPort()}`, proc: bot };
  }

  it("is healthy but not ready while it waits, saying it is starting, and exits 0 at once on SIGTERM", async () => {
    // Seven failures: the longest wait, five minutes.
    const { base, proc } = await startAfterFailures(7, 0);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "not ready", notReady: ["starting"] });
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect(telegram!.calls.some((c) => c.method === "getMe")).toBe(false);
  });

  it("turns ready once the wait is over and Telegram is up", async () => {
    // Three failures want twenty seconds from now: a start slowed by a busy machine still
    // finds most of the wait ahead of it.
    const { base } = await startAfterFailures(3, 0);
    const waiting = await fetch(`${base}/readyz`);
    expect(waiting.status).toBe(503);
    expect(((await waiting.json()) as { notReady: string[] }).notReady).toEqual(["starting"]);
    const ready = await waitForHttp(`${base}/readyz`, (r) => r.status === 200, 45_000);
    expect(await ready.json()).toMatchObject({ status: "ready", checks: { store: { ok: true }, market: { ok: true }, telegram: { ok: true } } });
  });


  it("makes the start after a refused token wait before logging in again", async () => {
    telegram = await startFakeTelegram({ maxPollMs: 500 });
    const dir = tempDir();
    const env = {
      TELEGRAM_BOT_TOKEN: "999999:REFUSED-token-value-for-test",
      TELEGRAM_API_ROOT: telegram.apiRoot,
      DATABASE_PATH: join(dir, "data", "bot.db"),
    };
    const first = spawnBot(env, { cwd: dir });
    expect((await first.exited).code).toBe(1);
    expect(first.stderr()).not.toMatch(/waiting before logging in again/);
    // The refusal was recorded. Two earlier failures are added to it, so the next start wants
    // twenty seconds rather than five: a start slowed by a busy machine would outlast five.
    const record = join(dir, "data", ".start-failures.json");
    const recorded = JSON.parse(readFileSync(record, "utf8")) as { failures: number; lastFailureAt: number };
    expect(recorded.failures).toBe(1);
    writeFileSync(record, JSON.stringify({ ...recorded, failures: 3 }));
    bot = spawnBot(env, { cwd: dir });
    const line = await bot.waitForLog(/waiting before logging in again/);
    expect(JSON.parse(line)).toMatchObject({ level: 40, waitMs: expect.any(Number) });
    expect(JSON.parse(line).waitMs).toBeGreaterThan(0);
  });
});
