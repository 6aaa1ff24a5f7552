/**
 * New launches end to end on Telegram: the real core and Telegram adapter on the fake Bot API,
 * the sandbox market and the launch watcher, all on one hand-moved clock. Chats subscribe six
 * days before the sandbox's genesis and are owed what launched since, its honeypots among them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { shortAddress } from "../../src/core/format/index.js";
import type { LaunchWatcher } from "../../src/launches/watcher.js";
import { fakeUser, groupChat } from "../fakes/telegram-api.js";
import { startHarness, type Harness } from "../adapters/telegram/harness.js";
import { FIRST_PASS, HOUR, startLaunchWorld, type LaunchWorld } from "./launch-world.js";

const firstLine = (text: string): string => text.split("\n")[0] ?? "";

let world: (LaunchWorld & { h: Harness; watcher: LaunchWatcher }) | undefined;
afterEach(async () => {
  if (!world) return;
  await world.watcher.stop();
  await world.h.close();
  await world.close();
  world = undefined;
});

describe("new launches through Telegram", () => {
  it("posts each launch once per chat, verdict first, in the chat's language, paced, honeypots held back, the rest folded", async () => {
    const base = await startLaunchWorld("cp-launch-tg-");
    const h = await startHarness({ core: base.core, store: base.store, adapter: { now: base.clock.now } });
    // Three posts a chat an hour, two a minute: the fourth token is folded, the third waits.
    const watcher = base.launchWatcher({ sinks: { telegram: h.adapter }, perHour: 3, perChatPerMinute: 2 });
    const w = (world = { ...base, h, watcher });
    const admin = fakeUser({ id: 7 });
    const say = async (chat: { id: number }, text: string): Promise<string> => {
      const m = h.fake.sendText(chat as ReturnType<typeof groupChat>, text, { from: admin });
      return (await h.fake.waitForSent((s) => s.replyTo === m.message_id)).text;
    };
    const [ethChat, zhChat, enChat, leftChat] = [-501, -502, -503, -504].map((id) => groupChat({ id }));
    for (const c of [ethChat!, zhChat!, enChat!, leftChat!]) h.fake.setMember(c.id, admin.id, "administrator");

    expect(await say(ethChat!, "/subscribe launches eth")).toContain("New eth tokens will be posted here, the contract report first");
    expect(await say(zhChat!, "/settings language zh")).toContain("语言");
    expect(await say(zhChat!, "/subscribe launches solana")).toContain("solana 的新币将在这里推送");
    expect(await say(enChat!, "/subscribe launches solana")).toContain("New solana tokens will be posted here");
    expect(await say(enChat!, "/subscriptions")).toMatch(/New launches posted here[\s\S]*solana/);
    expect(await say(leftChat!, "/subscribe launches solana")).toContain("New solana tokens will be posted here");
    expect(await say(leftChat!, "/unsubscribe launches solana")).toBe("🟢 New solana tokens are no longer posted here.");
    const before = h.fake.sent.length;

    expect(await w.pass(watcher, FIRST_PASS)).toBeGreaterThan(0);
    const launches = (chat: { id: number }) => h.fake.sent.slice(before).filter((s) => s.chatId === String(chat.id));
    const honeypots = w.launched("eth", "honeypot");
    expect(honeypots.length).toBeGreaterThan(0);
    const ethPosts = launches(ethChat!);
    expect(ethPosts).toHaveLength(3);
    for (const p of ethPosts) {
      // The title line is the contract's verdict, with no tone mark of the adapter's before it.
      expect(p.text).toMatch(/^(🔴|🟡|🟢|⚪) [^\n]+\n+🆕 New on eth/u);
      expect(p.text).toContain("🆕 New on eth:");
      for (const hp of honeypots) expect(p.text).not.toContain(shortAddress(hp.address));
    }
    const enPosts = launches(enChat!).map((s) => s.text);
    const zhPosts = launches(zhChat!).map((s) => s.text);
    expect(enPosts).toHaveLength(3);
    expect(zhPosts).toHaveLength(3);
    expect(enPosts.filter((t) => firstLine(t).endsWith("⚪ Not checked: no contract report yet — this is not a sign it is safe"))).toHaveLength(1);
    expect(zhPosts.filter((t) => firstLine(t).endsWith("⚪ 未检查：还没有合约报告——这不代表安全"))).toHaveLength(1);
    for (const t of zhPosts) {
      expect(t).toContain("🆕 solana 新币：");
      expect(t).toMatch(/地址[\s\S]*流动性[\s\S]*价格[\s\S]*上线时间/);
      // Chinese writes compact amounts with 万 and 亿, never K or M; the data is as of this pass, not the launch.
      expect(t).not.toMatch(/\$[\d.]+[KMB]\b/);
      expect(t).toContain("数据时间 02:00 UTC");
    }
    expect(launches(leftChat!)).toEqual([]);
    // The pacer let no chat have a third post within a minute of its first.
    for (const times of w.sentAt.values()) for (let i = 2; i < times.length; i++) expect(times[i]! - times[i - 2]!).toBeGreaterThanOrEqual(60_000);
    expect([...w.sentAt.values()].some((t) => t.length === 3)).toBe(true);

    const seen = h.fake.sent.length;
    expect(await w.pass(watcher, FIRST_PASS + 2 * 60_000)).toBe(0);
    expect(h.fake.sent.length).toBe(seen);

    await w.pass(watcher, FIRST_PASS + HOUR);
    // Posted in the hour after: the title names the hour the tokens were found in.
    const summary = (chat: { id: number }) => launches(chat).filter((s) => / more new token | 另有 /.test(s.text)).map((s) => firstLine(s.text));
    expect(summary(ethChat!)).toEqual(["🆕 1 more new token found on eth between 02:00 and 03:00 UTC"]);
    expect(summary(enChat!)).toEqual(["🆕 1 more new token found on solana between 02:00 and 03:00 UTC"]);
    expect(summary(zhChat!)).toEqual(["🆕 UTC 02:00 至 03:00 期间 solana 另有 1 个新币"]);
    const ethTexts = launches(ethChat!).map((s) => s.text).join("\n");
    for (const hp of honeypots) for (const shown of [hp.address, shortAddress(hp.address)]) expect(ethTexts).not.toContain(shown);
    // Every eth launch but the honeypots reached the chat, in a post or the summary.
    const owed = w.sandbox.market.tokens.filter((t) => t.chain === "eth" && t.risk !== "honeypot" && !honeypots.includes(t) && w.launched("eth", t.risk).includes(t));
    // A post shows the whole address, the summary's table its short form.
    for (const t of owed) expect(ethTexts.includes(t.address) || ethTexts.includes(shortAddress(t.address))).toBe(true);
  }, 120_000);
});
