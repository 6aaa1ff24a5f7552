import pino from "pino";
import { describe, expect, it } from "vitest";
import { createPostRenderer } from "../../src/core/posts/renderer.js";
import type { ScheduledPost } from "../../src/core/posts/render.js";

const AT = Date.UTC(2026, 10, 24, 9, 30);
const lines: string[] = [];
/** The core's renderer over chats whose `/settings language` is their id ("en", "zh"). */
const core = createPostRenderer({
  settings: { getSettings: async (chat) => ({ timezone: "UTC", language: chat.chatId }) },
  source: "demo data (sandbox)",
  log: pino({ level: "error" }, { write: (l: string) => void lines.push(l) }),
});
const render = (language: "en" | "zh", post: ScheduledPost) => core.render({ platform: "telegram", chatId: language }, post);
const paused = { kind: "alert-paused" as const, record: JSON.stringify({ numbers: [3, 5], tokenId: "x-solana", symbol: "GONE", chain: "solana", since: AT }) };

describe("the messages alerts post, written by the core", () => {
  it("says once which alerts a silent token paused, in the chat's language", async () => {
    expect((await render("en", paused)).title).toBe("Alerts #3, #5 are paused: GONE on solana has had no price for 24 hours.");
    expect((await render("en", { ...paused, record: paused.record.replace("[3,5]", "[3]") })).title).toBe(
      "Alert #3 is paused: GONE on solana has had no price for 24 hours.",
    );
    const zh = await render("zh", paused);
    expect(zh.title).toBe("提醒 #3、#5 已暂停：GONE（solana）已 24 小时没有价格。");
    expect(zh.locale).toBe("zh");
    expect(zh.footer?.source).toBe("演示数据（沙盒）");
  });

  it("names the token, the rule, both prices and the time of a move, with Card, Chart and Delete but no Re-arm", async () => {
    const payload = { number: 4, tokenId: "x-solana", symbol: "<b>WIF</b>", chain: "solana", rule: "move", level: "10", from: "2", price: "1.75", at: AT };
    const reply = await render("en", { kind: "alert-fired", record: JSON.stringify(payload) });
    expect(reply.title).toBe("Alert #4: <b>WIF</b> moved ▼ −12.50%");
    expect(reply.tone).toBe("danger");
    expect(reply.blocks[0]).toEqual({
      kind: "fields",
      fields: [
        { label: "Token", value: "<b>WIF</b> on solana", inline: true },
        { label: "Alert", value: "#4: moves 10% either way", inline: true },
        { label: "Price", value: "$1.75 (▼ −12.50%)", inline: true },
        { label: "Anchor", value: "$2.00", inline: true },
        { label: "Time", value: "24 Nov 09:30 UTC", inline: true },
      ],
    });
    expect(reply.actions.flat().map((a) => a.label)).toEqual(["Card", "Chart", "Delete"]);
    const zh = await render("zh", { kind: "alert-fired", record: JSON.stringify(payload) });
    expect(zh.blocks[0]).toEqual(expect.objectContaining({ fields: expect.arrayContaining([{ label: "提醒", value: "#4：涨跌 10%", inline: true }]) }));
  });

  it("writes a small move's price and anchor with the digits that tell them apart", async () => {
    const payload = { number: 1, tokenId: "x-solana", symbol: "X", chain: "solana", rule: "move", level: "0.01", from: "0.000024308", price: "0.000024312", at: AT };
    const fields = (await render("en", { kind: "alert-fired", record: JSON.stringify(payload) })).blocks[0];
    expect(fields).toEqual(expect.objectContaining({ fields: expect.arrayContaining([
      { label: "Price", value: "$0.0₄24312 (▲ +0.02%)", inline: true },
      { label: "Anchor", value: "$0.0₄24308", inline: true },
    ]) }));
  });

  it("answers a record it cannot read with an error, logged, instead of sending garbage", async () => {
    expect((await render("en", { kind: "alert-fired", record: "{not json" })).error).toBe("internal");
    expect((await render("en", { kind: "alert-fired", record: JSON.stringify({ number: 4 }) })).error).toBe("internal");
    expect(lines.join("")).toContain("a scheduled post's record could not be read");
  });

  it("writes the digest's pause notice in the chat's language", async () => {
    expect((await render("en", { kind: "digest-paused", chain: "eth" })).title).toBe("The eth digest is paused: I may not post here.");
    expect((await render("zh", { kind: "digest-paused", chain: "eth" })).title).toBe("eth 摘要已暂停：我无权在此发言。");
  });
});

describe("a launch summary queued by the build before its hours were kept", () => {
  it("still goes out, without the hours it cannot tell", async () => {
    const record = JSON.stringify({ chain: "eth", max: 20, tokens: [{ symbol: "NEW", address: "0x" + "1".repeat(40), launchAt: AT / 1000 - 600 }] });
    expect((await render("en", { kind: "launch-summary", record })).title).toBe("🆕 1 more new token found on eth");
    expect((await render("zh", { kind: "launch-summary", record })).title).toBe("🆕 eth 另有 1 个新币");
  });
});
