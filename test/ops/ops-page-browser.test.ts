/**
 * The operator's page as a person sees it: a real bot (real core, Telegram adapter on the fake
 * Bot API, the sandbox market over HTTP, alerts checked every 10 s) with traffic, alerts that
 * fire, and one chat whose deliveries the platform refuses; the page opened in Debian's
 * Chromium through its login form.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBot, type RunningBot } from "../../src/app/start-bot.js";
import { loadConfig } from "../../src/config.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { deferred } from "../deferred.js";
import { fakeUser, groupChat, startFakeTelegram, type ApiCall, type FakeTelegram } from "../fakes/telegram-api.js";
import { metric } from "../metrics-text.js";
import { launchChromium } from "./chromium.js";
import { portLogger } from "./port-logger.js";

const OPS_TOKEN = "ops-token-0123456789abcdef";
const HOSTILE_REASON = 'Forbidden: not enough rights to send text messages <img src=x onerror="alert(1)"> & co';
const good = groupChat({ id: -1001, supergroup: true });
const failing = groupChat({ id: -1002, supergroup: true });
const admin = fakeUser({ id: 7 });

let tg: FakeTelegram;
let sandbox: Sandbox;
let bot: RunningBot;
let base: string;
let dir: string;
let secrets: string[];

const metricsText = async () => (await fetch(`${base}/metrics`)).text();

/** Settled when the bot has counted an alert send with that outcome in /metrics. */
const alertCounted = new Map([
  ["delivered", deferred()],
  ["forbidden", deferred()],
]);

/**
 * Doubles WIF's sandbox price over the coming minute and holds it there for half an hour: a 5 %
 * move alert set before it fires at the next check or two, whatever the walk does today.
 */
function pumpWif(): void {
  const token = sandbox.market.bySymbol("WIF")[0];
  if (token === undefined) throw new Error("the sandbox lists no WIF");
  const minute = Math.floor(Date.now() / 60_000);
  sandbox.market.movePrice(token, { fromMinute: minute + 1, toMinute: minute + 30, factor: 2 });
}

async function ask(chat: typeof good, text: string): Promise<string> {
  const m = tg.sendText(chat, text, { from: admin });
  return (await tg.waitForSent((s) => s.replyTo === m.message_id)).text;
}

beforeAll(async () => {
  tg = await startFakeTelegram({ maxPollMs: 500 });
  sandbox = await startSandbox({});
  dir = mkdtempSync(join(tmpdir(), "cp-ops-page-"));
  const config = loadConfig({
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    MARKET_API_KEY: sandbox.v2Key,
    MARKET_API_URL: sandbox.url,
    MARKET_API_V1_URL: sandbox.url,
    MARKET_API_V1_KEY: sandbox.v1Key,
    // Enough that the day's pace never holds the alert check, at any hour: at 00:05 UTC a plan
    // of 5,000 let the alerts lane spend 270 units, fewer than the commands before it had.
    MARKET_API_DAILY_UNITS: "1000000",
    HTTP_PORT: "0",
    OPS_TOKEN,
    DATABASE_PATH: join(dir, "bot.db"),
    WORKER_ID: "w1",
    ALERT_CHECK_SECONDS: "10",
  });
  secrets = [...config.secrets];
  const logged = portLogger();
  bot = await startBot({
    config,
    log: logged.log,
    stdin: Readable.from([]),
    stdout: new PassThrough(),
    onSendCounted: (kind, _platform, outcome) => {
      if (kind === "alert") alertCounted.get(outcome)?.resolve();
    },
  });
  base = `http://127.0.0.1:${logged.port()}`;
  for (const chat of [good, failing]) tg.setMember(chat.id, admin.id, "administrator");
}, 60_000);

afterAll(async () => {
  await bot?.stop("test over");
  await tg?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the operator's page in a browser", () => {
  it("shows the day's units by lane with the right totals, the failing chat with its reason, and no secret", async () => {
    expect(await ask(good, "/price pepe")).toMatch(/PEPE/);
    expect(await ask(good, "/token wif")).toMatch(/WIF/);
    expect(await ask(good, "/alert wif move 5%")).toMatch(/Alert #1 set/);
    expect(await ask(failing, "/alert wif move 5%")).toMatch(/Alert #1 set/);
    const since = tg.calls.length;
    pumpWif();
    tg.fail({ method: "sendMessage", chatId: failing.id, error: { error_code: 403, description: HOSTILE_REASON } });
    // The next check fires both: one reaches its chat, the other is refused. The check is due
    // within ALERT_CHECK_SECONDS; the fake tells when each send was answered.
    const alertSent = (chat: typeof good, ok: boolean) => (c: ApiCall) => c.method === "sendMessage" && c.chatId === String(chat.id) && c.ok === ok;
    await tg.waitFor(alertSent(good, true), { since, timeoutMs: 60_000 });
    await tg.waitFor(alertSent(failing, false), { since, timeoutMs: 60_000 });
    // The bot counts each outcome once it has read the platform's answer.
    await Promise.all([...alertCounted.values()].map((d) => d.promise));
    const counted = await metricsText();
    expect(metric(counted, "chainpulse_alert_deliveries_total", { outcome: "delivered" })).toBeGreaterThanOrEqual(1);
    expect(metric(counted, "chainpulse_alert_deliveries_total", { outcome: "forbidden" })).toBeGreaterThanOrEqual(1);

    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      const elsewhere: string[] = [];
      page.on("request", (r) => {
        if (!r.url().startsWith(base)) elsewhere.push(r.url());
      });
      const first = await page.goto(base);
      expect(first?.status()).toBe(401);
      await page.fill('input[name="token"]', "not-the-token-at-all");
      await page.click('button[type="submit"]');
      await expect.poll(() => page.textContent("form")).toContain("That is not the token.");
      await page.fill('input[name="token"]', OPS_TOKEN);
      await page.click('button[type="submit"]');
      await page.waitForSelector("#quota");

      // The bot may still be spending (a cache refresh): read /metrics on both sides of a page load until they agree.
      let before = "";
      let after = "-";
      while (before !== after) {
        before = await metricsText();
        await page.reload();
        after = await metricsText();
        const lanes = (t: string) => ["people", "alerts", "digest", "refresh"].map((lane) => metric(t, "chainpulse_market_lane_units_total", { lane }));
        if (lanes(before).join() === lanes(after).join()) after = before;
      }
      const laneUnits = Object.fromEntries(["people", "alerts", "digest", "refresh"].map((lane) => [lane, metric(before, "chainpulse_market_lane_units_total", { lane })]));
      expect(laneUnits.people).toBeGreaterThan(0);
      expect(laneUnits.alerts).toBeGreaterThan(0);
      const total = Object.values(laneUnits).reduce((a, b) => a + b, 0);
      const spent = metric(before, "chainpulse_market_units_spent_today");
      expect(spent).toBe(total);

      // The legend reads each lane's units, the chart draws them stacked with the same last values.
      for (const [lane, units] of Object.entries(laneUnits)) {
        expect(await page.textContent(`[data-lane-units="${lane}"]`)).toBe(units.toLocaleString("en-US"));
        expect(Number(await page.getAttribute(`#quota svg polygon[data-layer="${lane}"]`, "data-last"))).toBe(units);
      }
      expect(await page.textContent("#lane-units-total")).toBe(total.toLocaleString("en-US"));
      expect(await page.textContent("#spent-today")).toBe(spent.toLocaleString("en-US"));
      expect(await page.textContent("#quota")).toContain("of 1,000,000");
      expect(await page.textContent("#quota")).toContain("Pace: known once this worker has counted for 5 minutes.");

      // The failing chat, by id, with what Telegram said, as text; the chat that got its alert is not listed.
      const row = page.locator("#deliveries-alert tr", { hasText: String(failing.id) });
      expect(await row.count()).toBe(1);
      expect(await row.locator("td").allTextContents()).toEqual(["telegram", String(failing.id), "forbidden", HOSTILE_REASON, "1", expect.stringMatching(/^\d\d:\d\d UTC$/)]);
      expect(await page.locator("#deliveries-alert").textContent()).not.toContain(String(good.id));
      expect(await page.locator("img").count()).toBe(0);
      expect(await page.textContent("#readiness")).toContain("ready");
      expect(await page.textContent("#workers")).toContain("w1");
      // Every kind the bot sends has its section from the start, with the rows the store keeps.
      for (const [kind, title] of [["buy", "Buy feed posts"], ["launch", "Launches"]]) expect(await page.textContent(`#deliveries-${kind} h2`)).toBe(title);

      const html = await page.content();
      for (const s of [...secrets, OPS_TOKEN]) expect(html).not.toContain(s);
      expect(html).toContain('<meta http-equiv="refresh" content="15">');
      expect(elsewhere).toEqual([]);

      // On a phone the page fits its width: a wide table scrolls inside its own section.
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375);
      // The leases' holders (host, process and a random part) wrap rather than push "expires" out of sight.
      expect(await page.evaluate("(() => { const s = document.querySelector('#workers'); return s.scrollWidth - s.clientWidth; })()")).toBeLessThanOrEqual(0);

      await page.setViewportSize({ width: 1280, height: 900 });
      const shot = join(dir, "ops-page.png");
      await page.screenshot({ path: shot, fullPage: true });
      if (process.env.UPDATE_SCREENSHOTS === "1") copyFileSync(shot, join(import.meta.dirname, "../../docs/ops-page.png"));
    } finally {
      await close();
    }
  }, 90_000);

  it("answers 401 without the token, with a wrong one, and a forged cookie", async () => {
    expect((await fetch(base)).status).toBe(401);
    expect((await fetch(base, { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(401);
    expect((await fetch(base, { headers: { cookie: `chainpulse_ops=${OPS_TOKEN}` } })).status).toBe(401);
    const ok = await fetch(base, { headers: { authorization: `Bearer ${OPS_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Compute units today");
    const login = await fetch(`${base}/login`, { method: "POST", body: new URLSearchParams({ token: OPS_TOKEN }), redirect: "manual" });
    expect(login.status).toBe(303);
    const cookie = login.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(OPS_TOKEN);
    expect((await fetch(base, { headers: { cookie: cookie.split(";")[0] ?? "" } })).status).toBe(200);
  });
});
