/**
 * Every hostile token of the sandbox through /token, /price, /search, /risk and /holders,
 * end to end: the real core on the sandbox, the real adapter, the fake Bot API checking what
 * Telegram would refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_TOKENS } from "../../../src/sandbox/index.js";
import { fakeUser, privateChat, type SentMessage } from "../../fakes/telegram-api.js";
import { type SandboxHarness, startSandboxHarness } from "./sandbox-harness.js";

/** The only markup the renderer writes. */
const OUR_TAGS = new Set(["b", "i", "a", "pre"]);

function expectOnlyOurMarkup(sent: SentMessage): void {
  const tags = [...sent.raw.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)];
  for (const [, name = "", attrs = ""] of tags) {
    expect(OUR_TAGS.has(name), `tag <${name}> in ${sent.raw.slice(0, 200)}`).toBe(true);
    if (name === "a") expect(attrs).toMatch(/^ href="https?:\/\/[^"]+"$/);
    else expect(attrs).toBe("");
  }
  expect(sent.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
}

describe("hostile token metadata through Telegram", () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startSandboxHarness();
  });
  afterAll(async () => h.close());

  it.each(HOSTILE_TOKENS.map((t) => [t.hostility, t] as const))("%s: one clean reply per command, none refused", async (_what, t) => {
    const chat = privateChat(fakeUser());
    const query = t.symbol.trim() || t.name.trim() || t.address;
    const asks = [`/token ${t.id}`, `/price ${t.id}`, `/search ${query.slice(0, 60)}`, `/risk ${t.id}`, `/holders ${t.id}`].map((text) =>
      h.fake.sendText(chat, text),
    );
    for (const ask of asks) await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 10_000 });
    for (const ask of asks) expect(h.fake.repliesTo(ask), ask.text).toHaveLength(1);
    const mine = h.fake.sent.filter((s) => s.chatId === String(chat.id));
    mine.forEach(expectOnlyOurMarkup);
    expect(h.fake.calls.filter((c) => c.chatId === String(chat.id) && !c.ok)).toEqual([]);
  });

  /** Every text one user reads: the answers to `commands` in their private chat, and the inline result for `query`. */
  async function answersTo(commands: readonly string[], query: string): Promise<string[]> {
    const user = fakeUser();
    const chat = privateChat(user);
    const asks = commands.map((text) => h.fake.sendText(chat, text, { from: user }));
    for (const ask of asks) await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 10_000 });
    const id = h.fake.inlineQuery(query, user);
    await h.fake.waitFor((c) => c.method === "answerInlineQuery" && c.payload.inline_query_id === id, { timeoutMs: 10_000 });
    const inline = (h.fake.inlineAnswers.get(id) ?? []) as { title: string; input_message_content: { message_text: string } }[];
    expect(inline).toHaveLength(1);
    return [...asks.flatMap((ask) => h.fake.repliesTo(ask).map((s) => s.text)), ...inline.flatMap((r) => [r.title, r.input_message_content.message_text])];
  }

  it("writes a token's @ so that Telegram makes no mention of it, in replies and inline results", async () => {
    const mentions = HOSTILE_TOKENS.find((t) => t.symbol === "@everyone");
    if (mentions === undefined) throw new Error("the sandbox has no token named @everyone");
    const texts = await answersTo([`/token ${mentions.id}`, `/price ${mentions.id}`, "/search @everyone", `/holders ${mentions.id}`], mentions.address);
    expect(texts.join("\n")).toContain("＠everyone");
    for (const text of texts) expect(text).not.toMatch(/@[A-Za-z]/);
  });

  it("writes links and commands in a token's name or in what was typed so that Telegram finds none", async () => {
    const markdown = HOSTILE_TOKENS.find((t) => t.name.includes("https://evil.example/"));
    if (markdown === undefined) throw new Error("the sandbox has no token with a link in its name");
    const all = (await answersTo([`/token ${markdown.id}`, `/risk ${markdown.id}`, "/search claim.pepe-airdrop.com", "/price /stopbuys", "/convert https://1.2.3.4/x pepe",
      "/alert pepe above t.me/abc", "/alert pepe move /stopbuys", "/alert pepe above @admin", "/subscribe eth every t.me/abc", "/holders pepe t.me/abc"], markdown.address)).join("\n");
    for (const shown of ["https:\u2044\u2044evi", "pepe-airdrop\u2024com", "\u2044stopbuys", "1\u20242\u20243\u20244"]) expect(all).toContain(shown);
    for (const live of ["evil.example", "pepe-airdrop.com", "://", "1.2.3.4", "/stopbuys", "t.me/", "@admin"]) expect(all).not.toContain(live);
    expect(all).toContain("t\u2024me/abc");
  });

  it("shows a name full of HTML as text, escaped, never as markup", async () => {
    const html = HOSTILE_TOKENS.find((t) => t.symbol === "<b>HTML</b>");
    const chat = privateChat(fakeUser());
    const ask = h.fake.sendText(chat, `/token ${html?.id}`);
    const card = await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    expect(card.text).toContain("<b>HTML</b>");
    expect(card.raw).toContain("&lt;b&gt;HTML&lt;/b&gt;");
    expect(card.raw).not.toContain("<script");
  });
});
