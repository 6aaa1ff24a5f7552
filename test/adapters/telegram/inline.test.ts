/** Inline mode with the real core on the sandbox market and the default command budget. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeUser, privateChat } from "../../fakes/telegram-api.js";
import { clauseCut } from "../../../src/adapters/telegram/features/inline.js";
import { type SandboxHarness, startSandboxHarness } from "./sandbox-harness.js";

interface Article {
  title: string;
  input_message_content: { message_text: string };
  reply_markup?: unknown;
}

describe("Telegram inline mode", () => {
  let h: SandboxHarness;

  beforeEach(async () => {
    // The default budget ({}): an inline query must cost what the users would pay.
    h = await startSandboxHarness({ budget: {} });
  });
  afterEach(async () => {
    await h.close();
  });

  async function inline(text: string, from = fakeUser()): Promise<Article[]> {
    const id = h.fake.inlineQuery(text, from);
    const answer = await h.fake.waitFor((c) => c.method === "answerInlineQuery" && c.payload.inline_query_id === id, { timeoutMs: 10_000 });
    expect(answer.ok).toBe(true);
    return h.fake.inlineAnswers.get(id) as Article[];
  }

  it("offers 10 token cards as articles the fake accepts, with link buttons only", async () => {
    const results = await inline("pepe");
    expect(results).toHaveLength(10);
    expect(results[0]?.title).toMatch(/^PEPE · /);
    expect(results[0]?.input_message_content.message_text).toMatch(/PEPE[\s\S]*\$\d/);
    expect(JSON.stringify(results.map((r) => r.reply_markup))).not.toContain("callback_data");
  });

  it("tells clones apart in the titles, as the buttons for the other matches do", async () => {
    // /price searches wider than inline mode: the clones it finds are suggested from then on.
    const ask = h.fake.sendText(privateChat(fakeUser()), "/price pepe");
    await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 10_000 });
    const titles = (await inline("pepe")).map((r) => r.title);
    expect(titles.filter((t) => t.startsWith("PEPE · Pepe · eth · ")).length).toBeGreaterThan(1);
    expect(new Set(titles).size).toBe(titles.length);
    for (const t of titles) expect(t).toMatch(/ · \$[\d.]+[KMBT]? · \w{4,6}…\w{4}$/);
  });

  it("answers a pasted link, an address or a symbol with its chain with the one card /price takes", async () => {
    const wif = h.sandbox.market.tokens.find((t) => t.symbol === "WIF" && t.chain === "solana");
    if (wif === undefined) throw new Error("the sandbox has no WIF on solana");
    for (const query of [`https://dexscreener.com/solana/${wif.address}`, `https://birdeye.so/token/${wif.address}?chain=solana`, wif.address, "wif solana", "$WIF solana"]) {
      const results = await inline(query);
      expect(results.map((r) => r.title), query).toEqual([expect.stringMatching(/WIF.*dogwifhat|dogwifhat.*WIF/)]);
      expect(results[0]?.input_message_content.message_text).toContain("WIF");
    }
  });

  it("answers in the asker's language, and keeps the answer out of the cache Telegram shares between people", async () => {
    const id = h.fake.inlineQuery("pepe", { ...fakeUser(), language_code: "zh-hans" });
    const answer = await h.fake.waitFor((c) => c.method === "answerInlineQuery" && c.payload.inline_query_id === id, { timeoutMs: 10_000 });
    expect(answer.payload).toMatchObject({ is_personal: true });
    const results = h.fake.inlineAnswers.get(id) as Article[];
    expect(results[0]?.input_message_content.message_text).toMatch(/[\u4e00-\u9fff]/);
  });

  async function answered(text: string, from = fakeUser()): Promise<Record<string, unknown>> {
    const id = h.fake.inlineQuery(text, from);
    const answer = await h.fake.waitFor((c) => c.method === "answerInlineQuery" && c.payload.inline_query_id === id, { timeoutMs: 10_000 });
    expect(answer.ok).toBe(true);
    return answer.payload;
  }

  it("answers an empty query with no results and a line saying what to type", async () => {
    expect(await answered("  ")).toMatchObject({ results: [], button: { text: "Type a token's symbol or address", start_parameter: "inline" } });
    const zh = await answered("", { ...fakeUser(), language_code: "zh-hans" });
    expect(zh).toMatchObject({ results: [], button: { text: "输入代币的符号或地址" } });
  });

  it("says when no token matches, and keeps that answer out of Telegram's cache", async () => {
    const payload = await answered("zzqqxxnothing");
    expect(payload).toMatchObject({ results: [], cache_time: 0, button: { text: "No token matches “zzqqxxnothing”" } });
  });

  it("searches nothing for a malformed address or a control character, and says what /token would", async () => {
    const searches = () => h.sandbox.stats().byEndpoint["search"] ?? 0;
    const before = searches();
    const user = fakeUser();
    const payload = await answered("0x1234", user);
    expect(payload).toMatchObject({ results: [], button: { text: expect.stringMatching(/^That looks like an EVM address/) } });
    const bell = await answered("pe\u0007pe", user);
    expect(bell.results).toEqual([]);
    expect((bell.button as { text: string }).text).not.toBe("");
    expect(searches()).toBe(before);
  });

  it("cuts a long line above the results after a whole clause, never mid-clause", async () => {
    const payload = await answered(`0x${"a".repeat(41)}`);
    const text = (payload.button as { text: string }).text;
    expect(text).toBe("That looks like an EVM address, but it has 41 hex digits…");
    expect(clauseCut("short", 64)).toBe("short");
  });

  it("says why a named token has no card, in the words /token would use", async () => {
    const user = fakeUser();
    const payload = await answered("0x000000000000000000000000000000000000dEaD bsc", user);
    expect(payload.results).toEqual([]);
    const ask = h.fake.sendText(privateChat(user), "/token 0x000000000000000000000000000000000000dEaD bsc", { from: user });
    const said = (await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 10_000 })).text;
    const button = (payload.button as { text: string }).text;
    expect(button).toMatch(/^The market service does not know/);
    expect(said).toContain(button.replace(/…$/, ""));
  });

  it("costs one command of the user's budget however many cards it shows", async () => {
    const user = fakeUser();
    expect(await inline("pepe", user)).toHaveLength(10);
    const chat = privateChat(user);
    for (let i = 0; i < 9; i++) {
      const ask = h.fake.sendText(chat, "/price pepe", { from: user });
      const reply = await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 10_000 });
      expect(reply.text).toMatch(/^PEPE \$/);
      expect(h.fake.repliesTo(ask)).toHaveLength(1);
    }
    const over = h.fake.sendText(chat, "/price pepe", { from: user });
    const polite = await h.fake.waitForSent((s) => s.replyTo === over.message_id, { timeoutMs: 10_000 });
    expect(polite.text).toContain("You have sent more commands this minute than I take from one person");
  });

  it("leaves the budget's one notice to the next command when it refuses an inline query, and keeps that refusal out of Telegram's shared cache", async () => {
    const user = fakeUser();
    for (let i = 0; i < 10; i++) expect(await inline("bonk", user)).not.toEqual([]);
    const id = h.fake.inlineQuery("bonk", user);
    const refused = await h.fake.waitFor((c) => c.method === "answerInlineQuery" && c.payload.inline_query_id === id, { timeoutMs: 10_000 });
    expect(refused.payload).toMatchObject({ results: [], cache_time: 0, is_personal: true, button: { text: expect.stringMatching(/^Too many requests; try again in \d+ s$/) } });
    const chat = privateChat(user);
    const over = h.fake.sendText(chat, "/price bonk", { from: user });
    const polite = await h.fake.waitForSent((s) => s.replyTo === over.message_id, { timeoutMs: 10_000 });
    expect(polite.text).toContain("You have sent more commands this minute than I take from one person");
  });
});
