/** Calls through the real Telegram adapter on the fake Bot API: who called a token, take-backs, boards, hostile names. */
import type { Chat, Message, User } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeUser, groupChat, privateChat, type SentMessage } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";

/** PEPE's contract on eth, a token of the seeded sandbox. */
const ADDRESS = "0x6982508145454ce325ddbe47a25d4ec3d2311933";
const PEPE = `${ADDRESS}-eth`;

describe("Telegram calls on the real core", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ fake: { readsAllGroupMessages: true } });
  });
  afterAll(async () => h.close());

  const answer = (ask: Message): Promise<SentMessage> => h.fake.waitForSent((s) => s.replyTo === ask.message_id);
  const say = (chat: Chat, text: string, from: User): Promise<SentMessage> => answer(h.fake.sendText(chat, text, { from }));

  it("credits the member who pasted the address and names them on another member's later card", async () => {
    const group = groupChat({ supergroup: true });
    const admin = fakeUser();
    h.fake.setMember(group.id, admin.id, "administrator");
    expect((await say(group, "/autodetect on", admin)).text).toContain("Auto-detect is now on");
    const ana = fakeUser({ name: "ana" });
    const card = await say(group, `look at ${ADDRESS}`, ana);
    expect(card.text).toMatch(/📣 ana called this here at \$/);
    expect(card.keyboard?.flat().map((b) => b.text)).toContain("Not a call");
    const later = await say(group, `/token ${PEPE}`, fakeUser({ name: "bob" }));
    expect(later.text).toMatch(/📣 Called by ana just now at \$[\d.,₀-₉]+ · now [\d.]+× · high [\d.]+×/);
    expect(later.keyboard?.flat().map((b) => b.text)).not.toContain("Not a call");
    const board = await say(group, "/lb", admin);
    expect(board.text).toContain("Callers · last 7 days");
    expect(board.text).toContain("ana");
    expect((await say(group, "/calls", ana)).text).toContain("Calls by ana");
  });

  it("lets only the caller take a call back with the Not a call button", async () => {
    const group = groupChat({ supergroup: true });
    const ana = fakeUser({ name: "ana" });
    const card = await say(group, `/token ${PEPE}`, ana);
    const target = { chatId: card.chatId, messageId: card.messageId };
    const since = h.fake.sent.length;
    const byBob = h.fake.pressButton(target, "Not a call", fakeUser({ name: "bob" }));
    // Only bob is told, in the button's pop-up: nothing goes to the group.
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === byBob);
    expect(h.fake.answers.get(byBob)).toContain("Only the member who called it");
    const calls = h.fake.calls.length;
    h.fake.pressButton(target, "Not a call", ana);
    // The card is drawn again in place: the call's line and button gone, who took it back said.
    await h.fake.waitFor((c) => c.method.startsWith("editMessage") && c.ok, { since: calls });
    const redrawn = h.fake.message(card.chatId, card.messageId)!;
    expect(redrawn.text).toContain("ana's call of PEPE is taken back.");
    expect(redrawn.text).not.toContain("ana called this here");
    expect(redrawn.keyboard?.flat().map((b) => b.text)).not.toContain("Not a call");
    expect(redrawn.keyboard?.flat().map((b) => b.text)).toContain("↻ Refresh");
    expect(h.fake.sent.slice(since).filter((s) => s.replyTo === card.messageId)).toEqual([]);
    expect((await say(group, `/token ${PEPE}`, fakeUser({ name: "cid" }))).text).toMatch(/📣 cid called this here/);
  });

  it("says in a private chat that calls are kept in groups", async () => {
    const me = fakeUser();
    expect((await say(privateChat(me), "/lb", me)).text).toContain("Calls are kept in groups");
  });

  it("shows a hostile member name as text: no mention, no markup, no ping", async () => {
    const group = groupChat({ supergroup: true });
    const hostile = fakeUser({ name: "@everyone <b>x</b>" });
    const card = await say(group, `/token ${PEPE}`, hostile);
    const later = await say(group, `/token ${PEPE}`, fakeUser());
    const board = await say(group, "/lb", fakeUser());
    for (const sent of [card, later, board]) {
      expect(sent.text).toContain("＠everyone <b>x</b>");
      expect(sent.text).not.toContain("@everyone");
      expect(sent.raw).not.toContain("<b>x");
      expect(sent.raw).not.toMatch(/tg:\/\/user|<a /);
    }
  });

  it("makes no call for an anonymous admin or a bot", async () => {
    const group = groupChat({ supergroup: true });
    const anonymous = fakeUser({ name: "Group" });
    anonymous.is_bot = true;
    const asGroup = await answer(h.fake.sendText(group, `/token ${PEPE}`, { from: anonymous, senderChat: group }));
    const helper = { ...fakeUser({ name: "helper" }), is_bot: true };
    const byBot = await say(group, `/token ${PEPE}`, helper);
    for (const card of [asGroup, byBot]) expect(card.text).not.toContain("📣");
    expect((await say(group, `/token ${PEPE}`, fakeUser({ name: "dan" }))).text).toMatch(/📣 dan called this here/);
  });
});
