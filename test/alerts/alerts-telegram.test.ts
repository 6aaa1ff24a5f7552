/**
 * Alerts and watchlists end to end on Telegram: the real core and adapter on the fake Bot API,
 * the sandbox market, and the alert service, all on one hand-moved clock. Moving the clock moves
 * the sandbox's prices; each check is one `tick()`.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Chat, User } from "grammy/types";
import { HOSTILE_TOKENS } from "../../src/sandbox/index.js";
import { fakeUser, groupChat } from "../fakes/telegram-api.js";
import { startHarness, type Harness } from "../adapters/telegram/harness.js";
import { startAlertWorld, T0, typed, type AlertWorld } from "./alert-world.js";
import type { AlertService } from "../../src/alerts/service.js";

interface World extends AlertWorld {
  h: Harness;
  alerts: AlertService;
  chat: Chat;
  admin: User;
  member: User;
  /** The bot's answer to `text` sent by `from` (default the admin) in the test's group, without the tone's emoji. */
  ask(text: string, from?: User): Promise<string>;
}

let world: World | undefined;
afterEach(async () => {
  if (!world) return;
  await world.alerts.stop();
  await world.h.close();
  await world.close();
  world = undefined;
});

async function start(opts: { maxPerChat?: number; watchlistMax?: number; cooldownMs?: number } = {}): Promise<World> {
  const base = await startAlertWorld({ limits: { maxPerChat: opts.maxPerChat ?? 20, watchlistMax: opts.watchlistMax ?? 50 } });
  const h = await startHarness({ core: base.core, store: base.store, adapter: { now: base.clock.now } });
  const alerts = base.service("telegram", h.adapter, { cooldownMs: opts.cooldownMs });
  const chat = groupChat({ id: -100, supergroup: true });
  const admin = fakeUser({ id: 1 });
  const member = fakeUser({ id: 2 });
  h.fake.setMember(chat.id, admin.id, "administrator");
  h.fake.setMember(chat.id, member.id, "member");
  const ask = async (text: string, from: User = admin) => {
    const m = h.fake.sendText(chat, text, { from });
    return withoutTone((await h.fake.waitForSent((s) => s.replyTo === m.message_id)).text);
  };
  world = { ...base, h, alerts, chat, admin, member, ask };
  return world;
}

/** Telegram replies open with the tone's emoji (🟢, ⚠️, …). */
function withoutTone(text: string): string {
  return text.replace(/^\p{Extended_Pictographic}\uFE0F? /u, "");
}

function alertMessages(w: World, chatId = String(w.chat.id)) {
  return w.h.fake.sent.filter((s) => s.chatId === chatId && /^\S+ Alert #\d+: /.test(s.text));
}

/** One check at `at`, and every delivery it started. */
async function checkAt(w: World, at: number): Promise<void> {
  w.clock.set(at);
  await w.alerts.tick();
  await w.alerts.delivery.settled();
}

/** WIF's alert #1 above the level halfway to the price it reaches 3 % up, set at T0: the level, and when the price crosses it. */
async function wifAboveHalfway(w: World): Promise<{ id: string; t1: number; level: number }> {
  const id = w.idOf("WIF");
  const t1 = w.momentWhen(id, T0, 1.03);
  const level = (w.priceAt(id, T0) + w.priceAt(id, t1)) / 2;
  expect(await w.ask(`/alert wif above ${typed(level)}`)).toMatch(/^Alert #1 set/);
  return { id, t1, level };
}

describe("price alerts through Telegram", () => {
  it("lets admins set and delete alerts in a group, refuses members, and shows everyone the list", async () => {
    const w = await start();
    expect(await w.ask("/alert wif move 10%", w.member)).toBe("Only this chat's admins can manage alerts.");
    expect(await w.ask("/alert wif move 10%")).toMatch(/^Alert #1 set: WIF moves 10% either way\./);
    expect(await w.ask("/alert pepe above 0.001")).toMatch(/^Alert #2 set: PEPE above \$0\.001/);
    const m = w.h.fake.sendText(w.chat, "/alerts", { from: w.member });
    const listed = await w.h.fake.waitForSent((x) => x.replyTo === m.message_id);
    const list = withoutTone(listed.text);
    expect(list).toMatch(/^Price alerts in this chat \(2 of 20\)/);
    // Closest to firing first: the 10% move before the 100× rise, each with its delete button.
    expect(list.indexOf("WIF")).toBeLessThan(list.indexOf("PEPE"));
    expect(listed.keyboard?.flat().map((b) => b.text)).toEqual(["✖ #1", "✖ #2", "↻ Refresh"]);
    const m2 = w.h.fake.sendText(w.chat, "/alerts", { from: w.member });
    const second = await w.h.fake.waitForSent((x) => x.replyTo === m2.message_id);
    // A member's ✖ is refused where only they see it; the list stays as it was.
    const refused = w.h.fake.pressButton(listed, "✖ #2", w.member);
    await w.h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === refused);
    expect(w.h.fake.answers.get(refused)).toBe("Only this chat's admins can manage alerts.");
    // An admin's ✖ deletes the alert and redraws the list in place without it.
    const sent = w.h.fake.sent.length;
    w.h.fake.pressButton(listed, "✖ #2", w.admin);
    await w.h.fake.waitFor((c) => c.method === "editMessageText" && c.ok);
    const redrawn = w.h.fake.message(listed.chatId, listed.messageId)!;
    expect(withoutTone(redrawn.text)).toMatch(/^Price alerts in this chat \(1 of 20\)\n\nDeleted alert #2\./);
    expect(redrawn.text).not.toContain("PEPE");
    expect(redrawn.keyboard?.flat().map((b) => b.text)).toEqual(["✖ #1", "↻ Refresh"]);
    expect(w.h.fake.sent.length).toBe(sent);
    // A ✖ on a list older than the deletion redraws that list as it is now, and says so.
    const edits = w.h.fake.calls.filter((c) => c.method === "editMessageText" && c.ok).length;
    w.h.fake.pressButton(second, "✖ #2", w.admin);
    await w.h.fake.waitFor(() => w.h.fake.calls.filter((c) => c.method === "editMessageText" && c.ok).length > edits);
    const again = w.h.fake.message(second.chatId, second.messageId)!;
    expect(withoutTone(again.text)).toMatch(/^Price alerts in this chat \(1 of 20\)\n\nAlert #2 was already deleted\./);
    expect(again.text).not.toContain("PEPE");
    expect(await w.ask("/unalert 1", w.member)).toBe("Only this chat's admins can manage alerts.");
    expect(await w.ask("/unalert 1")).toBe("Deleted alert #1.");
    expect(await w.ask("/unalert 1")).toBe("This chat has no alert #1; /alerts lists them.");
    expect(await w.ask("/unalert all")).toBe("This chat has no alerts.");
  });

  it("answers every bad input with its own sentence", async () => {
    const w = await start({ maxPerChat: 2 });
    const wif = w.priceAt(w.idOf("WIF"), T0);
    expect(await w.ask(`/alert wif above ${typed(wif * 0.9)}`)).toMatch(/^WIF is already at or above \$0\.\d+ \(now \$0\.\d+\); choose a level above the current price\.$/);
    expect(await w.ask(`/alert wif below ${typed(wif * 1.1)}`)).toMatch(/^WIF is already at or below .*; choose a level below the current price\.$/);
    expect(await w.ask("/alert wif move 0%")).toBe("A move of 0% would fire at every check; choose a percent above 0.");
    expect(await w.ask("/alert wif move 1500%")).toBe("A move can be at most 1,000%.");
    expect(await w.ask("/alert wif above 0,0042")).toBe("“0,0042”: write decimals with a point, e.g. 0.0042.");
    expect(await w.ask("/alert wif above lots")).toBe("“lots” is not a price; write it as 0.0042, $1.5k or 2M.");
    expect(await w.ask("/alert wif sideways 5")).toBe('"sideways" is not a rule I know; choose one of: above, below, move.');
    expect(await w.ask("/alert zzzqqqxx above 1")).toMatch(/^No token matches "zzzqqqxx"\./);
    expect(await w.ask("/alert wif above 1.5k")).toMatch(/^Alert #1 set: WIF above \$1,500\.00/);
    expect(await w.ask("/alert wif above 2M")).toMatch(/^Alert #2 set: WIF above \$2M\./);
    expect(await w.ask("/alert wif move 5%")).toBe("This chat already has 2 alerts, the most it may have is 2; /unalert one first.");
    expect(await w.ask("/unalert two")).toBe("Which alert? Give its number from /alerts, or all, e.g. /unalert 2.");
    expect(await w.ask("/rearm 9")).toBe("This chat has no alert #9; /alerts lists them.");
  });

  it("fires an above alert once when the price crosses it, with Card, Chart, Re-arm and Delete", async () => {
    const w = await start();
    const id = w.idOf("WIF");
    const p0 = w.priceAt(id, T0);
    const t1 = w.momentWhen(id, T0, 1.03);
    const level = (p0 + w.priceAt(id, t1)) / 2;
    expect(await w.ask(`/alert wif above ${typed(level)}`)).toMatch(/^Alert #1 set/);
    await w.alerts.tick();
    expect(alertMessages(w)).toHaveLength(0);
    await checkAt(w, t1);
    const [fired, ...more] = alertMessages(w);
    expect(more).toEqual([]);
    expect(withoutTone(fired!.text)).toMatch(/^Alert #1: WIF is above \$0\.\d+/);
    expect(fired!.text).toMatch(/WIF on solana/);
    expect(fired!.text).toMatch(/#1: above \$0\.\d+/);
    expect(fired!.text).toMatch(/24 Nov \d\d:\d\d UTC/);
    expect(fired!.keyboard?.flat().map((b) => b.text)).toEqual(["Card", "Chart", "Re-arm", "Delete"]);
    // Later checks, the price still above: nothing more.
    await checkAt(w, t1 + 30_000);
    await checkAt(w, t1 + 60_000);
    expect(alertMessages(w)).toHaveLength(1);
    expect(await w.store.alerts.firingCounts()).toEqual({ delivered: 1 });
    // A member's press of Delete is refused in the button's pop-up; the admin's deletes it.
    const since = w.h.fake.sent.length;
    const byMember = w.h.fake.pressButton(fired!, "Delete", w.member);
    await w.h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === byMember);
    expect(w.h.fake.answers.get(byMember)).toBe("Only this chat's admins can manage alerts.");
    w.h.fake.pressButton(fired!, "Delete", w.admin);
    expect(withoutTone((await w.h.fake.waitForSent((s) => s.text.includes("Deleted"), { since })).text)).toBe("Deleted alert #1.");
  });

  it("re-arms a fired alert from its button, which then fires on the next crossing only", async () => {
    const w = await start();
    const { id, t1, level } = await wifAboveHalfway(w);
    await checkAt(w, t1);
    const [fired] = alertMessages(w);
    // Back under the level, re-armed there, then up through it again.
    const t2 = w.momentWhen(id, t1, (level * 0.995) / w.priceAt(id, t1));
    await checkAt(w, t2);
    expect(alertMessages(w)).toHaveLength(1);
    const since = w.h.fake.sent.length;
    w.h.fake.pressButton(fired!, "Re-arm", w.admin);
    expect(withoutTone((await w.h.fake.waitForSent((s) => s.text.includes("Alert #1 armed"), { since })).text)).toMatch(/^Alert #1 armed: WIF above/);
    const t3 = w.momentWhen(id, t2, level / w.priceAt(id, t2));
    await checkAt(w, t3 - 60_000);
    expect(alertMessages(w)).toHaveLength(1);
    await checkAt(w, t3);
    expect(alertMessages(w)).toHaveLength(2);
  });

  it("re-arms an alert right after it fired, the price still past the level, and fires after the price came back and crossed again", async () => {
    const w = await start();
    const { id, t1, level } = await wifAboveHalfway(w);
    await checkAt(w, t1);
    expect(alertMessages(w)).toHaveLength(1);
    const rearmed = await w.ask("/rearm 1");
    expect(rearmed).toMatch(/^Alert #1 armed: WIF above \$0\.\d+\.\n\nNow: \$0\.\d+\n\nWIF is at or above the level now, so it fires once the price has gone back under it and rises through it again\.\n/);
    expect(rearmed).not.toContain("Distance");
    // Listed as waiting for the price to come back, not as due, and after the alerts closer to firing.
    expect(await w.ask("/alerts")).toMatch(/\n\s*1\s+WIF .*to come back\n/);
    // The same price seen again is no crossing.
    await checkAt(w, t1 + 500);
    const t2 = w.momentWhen(id, t1, (level * 0.995) / w.priceAt(id, t1));
    await checkAt(w, t2);
    expect(alertMessages(w)).toHaveLength(1);
    expect(await w.ask("/alerts")).toMatch(/\n\s*1\s+WIF .*\d\.\d\d%\n/);
    const t3 = w.momentWhen(id, t2, level / w.priceAt(id, t2));
    await checkAt(w, t3);
    expect(alertMessages(w)).toHaveLength(2);
  });

  it("fires a below alert when the price falls through the level", async () => {
    const w = await start();
    const id = w.idOf("BONK");
    const t1 = w.momentWhen(id, T0, 0.97);
    const level = (w.priceAt(id, T0) + w.priceAt(id, t1)) / 2;
    expect(await w.ask(`/alert bonk below ${typed(level)}`)).toMatch(/^Alert #1 set: BONK below/);
    await checkAt(w, t1 - 60_000);
    await checkAt(w, t1);
    const [fired, ...more] = alertMessages(w);
    expect(more).toEqual([]);
    expect(withoutTone(fired!.text)).toMatch(/^Alert #1: BONK is below \$0\.0/);
  });

  it("fires a move alert both ways from its anchor, re-anchoring at each firing, at most once per cooldown", async () => {
    const w = await start({ cooldownMs: 15 * 60_000 });
    const id = w.idOf("WIF");
    expect(await w.ask("/alert wif move 1%")).toMatch(/^Alert #1 set: WIF moves 1% either way/);
    let at = T0;
    let anchor = w.priceAt(id, T0);
    const firedAt: number[] = [];
    for (let i = 0; i < 48 * 12 && firedAt.length < 3; i++) {
      at += 5 * 60_000;
      await checkAt(w, at);
      if (alertMessages(w).length > firedAt.length) {
        firedAt.push(at);
        const p = w.priceAt(id, at);
        expect(Math.abs(p / anchor - 1)).toBeGreaterThanOrEqual(0.0099);
        anchor = p;
      }
    }
    expect(firedAt).toHaveLength(3);
    for (let i = 1; i < firedAt.length; i++) expect(firedAt[i]! - firedAt[i - 1]!).toBeGreaterThanOrEqual(15 * 60_000);
    const alert = (await w.store.alerts.listAlerts({ platform: "telegram", chatId: String(w.chat.id) }))[0];
    expect(alert).toMatchObject({ armed: true, lastFiredAt: firedAt[2] });
    expect(Number(alert!.anchorPrice)).toBeCloseTo(anchor, 6);
  });

  it("writes a fired alert in the chat's language", async () => {
    const w = await start();
    const id = w.idOf("WIF");
    const t1 = w.momentWhen(id, T0, 1.03);
    const level = typed((w.priceAt(id, T0) + w.priceAt(id, t1)) / 2);
    expect(await w.ask(`/alert wif above ${level}`)).toMatch(/^Alert #1 set/);
    await w.store.updateSettings({ platform: "telegram", chatId: String(w.chat.id) }, { language: "zh" });
    w.clock.set(t1);
    await w.alerts.tick();
    await w.alerts.delivery.settled();
    const fired = w.h.fake.sent.filter((s) => s.text.includes("提醒 #1"));
    expect(fired).toHaveLength(1);
    expect(withoutTone(fired[0]!.text)).toMatch(/^提醒 #1：WIF 已高于 \$0\.\d+/);
    expect(fired[0]!.keyboard?.flat().map((b) => b.text)).toEqual(["详情", "图表", "重新启用", "删除"]);
  });

  it("carries hostile token names harmlessly into the alert message", async () => {
    const w = await start();
    for (const t of HOSTILE_TOKENS.slice(0, 6)) {
      await w.ask(`/alert ${t.id} move 0.01%`);
    }
    await checkAt(w, T0 + 10 * 60_000);
    expect(alertMessages(w).length).toBeGreaterThan(0);
    expect(w.h.fake.calls.filter((c) => !c.ok && c.method === "sendMessage")).toEqual([]);
  });

  it("drops the alerts and watchlist of a chat that removed the bot, and moves a migrated group's", async () => {
    const w = await start();
    const id = w.idOf("WIF");
    const t1 = w.momentWhen(id, T0, 1.03);
    const level = typed((w.priceAt(id, T0) + w.priceAt(id, t1)) / 2);
    const kicked = groupChat({ id: -300 });
    const migrated = groupChat({ id: -400 });
    for (const c of [kicked, migrated]) {
      w.h.fake.setMember(c.id, w.admin.id, "administrator");
      const m = w.h.fake.sendText(c, `/alert wif above ${level}`, { from: w.admin });
      await w.h.fake.waitForSent((s) => s.replyTo === m.message_id);
      const n = w.h.fake.sendText(c, "/watch pepe", { from: w.admin });
      await w.h.fake.waitForSent((s) => s.replyTo === n.message_id);
    }
    w.h.fake.kickFrom(kicked.id);
    w.h.fake.fail({
      chatId: migrated.id,
      error: { error_code: 400, description: "Bad Request: group chat was upgraded to a supergroup chat", parameters: { migrate_to_chat_id: -1004000 } },
    });
    await checkAt(w, t1);
    const key = (chatId: string) => ({ platform: "telegram" as const, chatId });
    expect(await w.store.alerts.listAlerts(key("-300"))).toEqual([]);
    expect(await w.store.watchlists.listWatched(key("-300"))).toEqual([]);
    expect(await w.store.alerts.listAlerts(key("-400"))).toEqual([]);
    expect((await w.store.alerts.listAlerts(key("-1004000"))).map((a) => [a.number, a.armed])).toEqual([[1, false]]);
    expect((await w.store.watchlists.listWatched(key("-1004000"))).map((x) => x.symbol)).toEqual(["PEPE"]);
    expect(alertMessages(w, "-1004000")).toHaveLength(1);
    expect(alertMessages(w, "-300")).toHaveLength(0);
  });
});

describe("watchlists through Telegram", () => {
  it("lets admins watch and unwatch, shows everyone the list sorted by 24h change with one batch call, and refreshes it in place", async () => {
    const w = await start({ watchlistMax: 4 });
    expect(await w.ask("/watch pepe", w.member)).toBe("Only this chat's admins can change the watchlist.");
    expect(await w.ask("/watch pepe wif bonk")).toMatch(/^Watching PEPE, WIF, BONK\./);
    expect(await w.ask("/watch pepe trump floki")).toMatch(/^Watching TRUMP\.\n\nAlready watched: PEPE\.\nNot added, the watchlist holds at most 4: FLOKI\./);
    expect(await w.ask("/watch floki")).toBe("This chat's watchlist already has 4 tokens, the most it may have; /unwatch one first.");
    expect(await w.ask("/watch pepe pepe")).toBe("Nothing new to watch.\n\nAlready watched: PEPE.");
    w.sandbox.resetStats();
    const m = w.h.fake.sendText(w.chat, "/watchlist", { from: w.member });
    const list = await w.h.fake.waitForSent((s) => s.replyTo === m.message_id);
    expect(w.sandbox.stats().byEndpoint.batchPrices).toBe(1);
    expect(list.text).toMatch(/^Watchlist \(4 of 4\), by 24h change/);
    const changes = [...list.text.matchAll(/([+−]\d+\.\d\d)%/g)].map((x) => Number(x[1]!.replace("−", "-")));
    expect(changes).toHaveLength(4);
    expect([...changes].sort((a, b) => b - a)).toEqual(changes);
    // Refresh edits the same message.
    w.clock.set(T0 + 5 * 60_000);
    const press = w.h.fake.pressButton(list, "↻ Refresh", w.member);
    await w.h.fake.waitFor((c) => c.method === "editMessageText" && c.ok);
    expect(w.h.fake.answers.has(press)).toBe(true);
    expect(w.h.fake.message(list.chatId, list.messageId)?.text).toMatch(/^Watchlist \(4 of 4\)/);
    expect(await w.ask("/unwatch wif", w.member)).toBe("Only this chat's admins can change the watchlist.");
    expect(await w.ask("/unwatch wif")).toBe("Stopped watching WIF on solana.");
    expect(await w.ask("/unwatch wif")).toBe("wif is not on this chat's watchlist; /watchlist shows it.");
    expect(await w.ask("/unwatch all")).toBe("Removed all 3 tokens from the watchlist.");
    expect(await w.ask("/watchlist")).toBe("This chat watches no tokens yet.\n\nAdd some with /watch pepe wif bonk.");
  });

  it("reads a chain after a token as that token's chain, and removes the copy named, asking which when two are watched", async () => {
    const w = await start({ watchlistMax: 10 });
    expect(await w.ask("/watch usdt bsc")).toMatch(/^Watching USDT\./);
    expect(await w.ask("/watch pepe bsc, pepe")).toMatch(/^Watching PEPE, PEPE\./);
    const m = w.h.fake.sendText(w.chat, "/watchlist");
    const list = await w.h.fake.waitForSent((s) => s.replyTo === m.message_id);
    expect(list.text).toMatch(/USDT\s+bsc/);
    expect(list.text).toMatch(/PEPE\s+bsc/);
    expect(list.text).toMatch(/PEPE\s+eth/);
    expect(await w.ask("/unwatch usdt bsc")).toBe("Stopped watching USDT on bsc.");
    // `pepe` is the original contract, on eth, wherever a command takes a token.
    expect(await w.ask("/unwatch pepe")).toBe("Stopped watching PEPE on eth.");
    expect(await w.ask("/watch pepe")).toMatch(/^Watching PEPE\./);
    expect(await w.ask("/unwatch pepe bsc")).toBe("Stopped watching PEPE on bsc.");
    expect(await w.ask("/unwatch pepe")).toBe("Stopped watching PEPE on eth.");
    expect(await w.ask("/watch pepe bsc, pepe base")).toMatch(/^Watching PEPE, PEPE\./);
    expect(await w.ask("/unwatch pepe")).toBe("This chat watches pepe on more than one chain; say which: pepe base, pepe bsc.");
  });
});
