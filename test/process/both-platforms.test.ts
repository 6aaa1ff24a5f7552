/**
 * Telegram and Discord in one `chainpulse start` process, each on its local fake, with the
 * sandbox as the market: both answer, readiness names both, one SIGTERM stops both.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { OptionType, startFakeDiscord, type FakeDiscord } from "../fakes/discord-api.js";
import { fakeUser, groupChat, startFakeTelegram, type FakeTelegram } from "../fakes/telegram-api.js";
import { spawnBot, tempDir, waitForHttp, type BotProcess } from "./bot-process.js";

let telegram: FakeTelegram | undefined;
let discord: FakeDiscord | undefined;
let sandbox: Sandbox | undefined;
let bot: BotProcess | undefined;

afterEach(async () => {
  if (bot && bot.child.exitCode === null) {
    bot.child.kill("SIGKILL");
    await bot.exited;
  }
  await telegram?.close();
  await discord?.close();
  await sandbox?.close();
  bot = telegram = discord = sandbox = undefined;
});

async function start(opts: { discordToken?: string } = {}) {
  telegram = await startFakeTelegram({ maxPollMs: 500 });
  discord = await startFakeDiscord();
  sandbox = await startSandbox();
  const dir = tempDir();
  bot = spawnBot(
    {
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      DISCORD_BOT_TOKEN: opts.discordToken ?? discord.token,
      DISCORD_APPLICATION_ID: discord.applicationId,
      DISCORD_API_ROOT: discord.apiRoot,
      MARKET_API_KEY: sandbox.v2Key,
      MARKET_API_URL: sandbox.url,
      HTTP_PORT: "0",
      DATABASE_PATH: join(dir, "data", "bot.db"),
    },
    { cwd: dir },
  );
  return { base: `http://127.0.0.1:${await bot.servedPort()}`, telegram, discord, bot };
}

// A process that starts both platforms, on a shared machine with every core busy: seconds of CPU
// before it is ready, past vitest's 30 s there.
describe("Telegram and Discord in one process", { timeout: 90_000 }, () => {
  it("gets ready on both platforms, answers /price on each, and stops with exit 0 on SIGTERM", async () => {
    const { base, telegram: tg, discord: dc, bot: proc } = await start();
    const ready = await waitForHttp(`${base}/readyz`, (r) => r.status === 200);
    const readiness = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean }> };
    expect(readiness.status).toBe("ready");
    expect(readiness.checks.telegram?.ok).toBe(true);
    expect(readiness.checks.discord?.ok).toBe(true);

    const asked = tg.sendText(groupChat(), "/price pepe", { from: fakeUser() });
    const slash = dc.chatInput({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: "pepe" }] });
    const [inTelegram, inDiscord] = await Promise.all([tg.waitForSent((s) => s.replyTo === asked.message_id), slash.settled()]);
    expect(inTelegram.text).toMatch(/PEPE/);
    if (inDiscord.kind !== "message") throw new Error(`Discord answer: ${inDiscord.kind}`);
    expect(inDiscord.ephemeral).toBe(false);
    expect(JSON.stringify(inDiscord.message.embeds)).toMatch(/PEPE/);
    expect(dc.violations).toEqual([]);

    proc.child.kill("SIGTERM");
    expect(await proc.exited).toEqual({ code: 0, signal: null });
  });

  it("exits non-zero with one line and no token when Discord refuses the token while Telegram is still starting", async () => {
    const badToken = "REFUSED.discord-token.value-for-test";
    const { bot: proc, discord: dc } = await start({ discordToken: badToken });
    const { code } = await proc.exited;
    expect(code).not.toBe(0);
    expect(dc.requests.some((r) => !r.authorized && r.status === 401)).toBe(true);
    const plain = proc
      .stderr()
      .split("\n")
      .filter((l) => l.startsWith("chainpulse:"));
    expect(plain).toHaveLength(1);
    expect(plain[0]).toMatch(/Discord.*token/i);
    expect(proc.stderr() + proc.stdout()).not.toContain(badToken);
  });
});
