/** Calls through the real Discord adapter on the fake Discord: one board per server, the Token card, names never mentioned. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OptionType, type FakeInteraction, type FakeUser, type RecordedRequest } from "../../fakes/discord-api.js";
import { startHarness, type Harness } from "./harness.js";

/** PEPE's contract on eth, a token of the seeded sandbox. */
const ADDRESS = "0x6982508145454ce325ddbe47a25d4ec3d2311933";
const PEPE = `${ADDRESS}-eth`;
const GUILD = "400000000000000077";

/** Everything a reader sees of the answer (content and embeds), Markdown escapes undone. */
function shown(body: unknown): string {
  const b = body as { content?: string; embeds?: Record<string, unknown>[]; data?: unknown };
  if (b.data !== undefined) return shown(b.data);
  const texts = [b.content ?? ""];
  for (const e of b.embeds ?? []) {
    const fields = (e.fields as { name: string; value: string }[] | undefined) ?? [];
    texts.push(String(e.title ?? ""), String(e.description ?? ""), (e.footer as { text?: string } | undefined)?.text ?? "", ...fields.flatMap((f) => [f.name, f.value]));
  }
  return texts.join("\n").replace(/\\(.)/g, "$1");
}

function mentionsOf(r: RecordedRequest): unknown {
  const b = r.body as { allowed_mentions?: unknown; data?: { allowed_mentions?: unknown } };
  return b.allowed_mentions ?? b.data?.allowed_mentions;
}

describe("Discord calls on the real core", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({});
  });
  afterAll(async () => h.close());
  afterEach(() => expect(h.fake.violations).toEqual([]));

  const ana: FakeUser = { id: "710000000000000001", username: "ana" };
  const bob: FakeUser = { id: "710000000000000002", username: "bob" };

  /** The answer the user sees: its text, and the request that carried it (checked for mentions). */
  async function answerOf(ia: FakeInteraction): Promise<string> {
    const settled = await ia.settled();
    if (settled.kind !== "message") throw new Error(settled.kind);
    expect(settled.ephemeral).toBe(false);
    expect(mentionsOf(settled.request)).toEqual({ parse: [] });
    const text = shown(settled.request.body);
    expect(text).not.toMatch(/<@!?\d+>|@everyone|@here/);
    return text;
  }

  const token = (user: FakeUser, channelId: string): FakeInteraction =>
    h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: PEPE }], user, channelId, guildId: GUILD });

  it("makes a call with /token and shares one board between the channels of a server", async () => {
    expect(await answerOf(token(ana, "510000000000000001"))).toMatch(/📣 ana called this here at \$/);
    expect(await answerOf(token(bob, "510000000000000002"))).toMatch(/📣 Called by ana just now at \$[\d.,₀-₉]+ · now [\d.]+× · high [\d.]+×/);
    const board = await answerOf(h.fake.chatInput({ name: "lb", user: bob, channelId: "510000000000000003", guildId: GUILD }));
    expect(board).toContain("Callers · last 7 days");
    expect(board).toContain("ana");
  });

  it("redraws the card in place when its caller presses Not a call, and tells another member alone", async () => {
    const channelId = "510000000000000021";
    const guildId = "400000000000000079";
    const made = await h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: PEPE }], user: ana, channelId, guildId }).settled();
    if (made.kind !== "message") throw new Error(made.kind);
    const notACall = (made.message.components as { components: { label?: string; custom_id?: string }[] }[]).flatMap((r) => r.components).find((b) => b.label === "Not a call")?.custom_id ?? "";
    const byBob = await h.fake.button({ customId: notACall, message: made.message, user: bob, channelId, guildId }).settled();
    if (byBob.kind !== "message") throw new Error(byBob.kind);
    expect(byBob.ephemeral).toBe(true);
    expect(shown(byBob.request.body)).toContain("Only the member who called it");
    const byAna = await h.fake.button({ customId: notACall, message: made.message, user: ana, channelId, guildId }).settled();
    if (byAna.kind !== "message") throw new Error(byAna.kind);
    expect(byAna.message.id).toBe(made.message.id);
    const text = shown(byAna.request.body);
    expect(text).toContain("ana's call of PEPE is taken back.");
    expect(text).not.toContain("ana called this here");
    expect((byAna.message.components as { components: { label?: string }[] }[]).flatMap((r) => r.components).map((b) => b.label)).not.toContain("Not a call");
  });

  it("makes a call with the Token card message command", async () => {
    const card = h.fake.messageCommand({ name: "Token card", target: { content: `look ${ADDRESS}`, author: ana }, user: bob, channelId: "510000000000000009", guildId: "400000000000000078" });
    expect(await answerOf(card)).toMatch(/📣 bob called this here at \$/);
  });

  it("answers /calls for a mentioned member without calls in words, not with a dash for a name", async () => {
    const asked = h.fake.chatInput({ name: "calls", options: [{ name: "who", type: OptionType.string, value: `<@${bob.id}>` }], user: ana, channelId: "510000000000000012", guildId: "400000000000000080" });
    const text = await answerOf(asked);
    expect(text).toContain("That member has made no calls in this chat.");
    expect(text).not.toContain("—");
  });

  it("shows a hostile display name as text, never a mention or markup", async () => {
    const eve: FakeUser = { id: "710000000000000003", username: "eve", globalName: "@everyone <@42> **x**" };
    const guildId = "400000000000000079";
    const card = h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: PEPE }], user: eve, channelId: "510000000000000010", guildId });
    expect(await answerOf(card)).toContain("📣 ＠everyone <＠42> **x** called this here");
    expect(JSON.stringify(h.fake.requests.at(-1)?.body)).not.toContain("**x**");
    const board = await answerOf(h.fake.chatInput({ name: "lb", user: bob, channelId: "510000000000000011", guildId }));
    expect(board).toContain("＠everyone <＠42> **x**");
  });
});
