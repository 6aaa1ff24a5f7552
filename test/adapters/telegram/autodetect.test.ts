import { afterEach, describe, expect, it } from "vitest";
import type { Reply } from "../../../src/core/reply.js";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";
import { createTestCore } from "./test-core.js";
import { deferred, testCommands, tokenCard } from "./test-commands.js";

const ADDRESS = "0x6982508145454ce325ddbe47a25d4ec3d2311933";

function detect(text: string): Reply | null {
  return text.includes(ADDRESS) ? tokenCard(ADDRESS, "$0.00001") : null;
}

describe("Telegram auto-detect", () => {
  let h: Harness;
  const start = async (readsAllGroupMessages = false): Promise<Harness> =>
    (h = await startHarness({
      core: createTestCore({ commands: testCommands({ prices: new Map(), slowGate: deferred() }), detect }),
      fake: { readsAllGroupMessages },
    }));
  afterEach(async () => h.close());

  it("answers a pasted address in a private chat with the card, and ordinary text with nothing", async () => {
    await start();
    const chat = privateChat(fakeUser());
    const chatter = h.fake.sendText(chat, "gm, what a day");
    const pasted = h.fake.sendText(chat, `look at ${ADDRESS}`);
    const card = await h.fake.waitForSent((s) => s.replyTo === pasted.message_id);
    expect(card.text).toContain(`${ADDRESS.toUpperCase()} price`);
    expect(h.fake.repliesTo(chatter)).toEqual([]);
  });

  it("stays silent on a pasted address in a group until an admin turns auto-detect on", async () => {
    await start(true);
    const group = groupChat();
    const admin = fakeUser();
    h.fake.setMember(group.id, admin.id, "administrator");
    const before = h.fake.sendText(group, ADDRESS);
    const on = h.fake.sendText(group, "/autodetect on", { from: admin });
    const confirm = await h.fake.waitForSent((s) => s.replyTo === on.message_id);
    expect(confirm.text).toContain("Auto-detect is now on in this chat");
    expect(confirm.text).not.toContain("BotFather");
    expect(h.fake.repliesTo(before)).toEqual([]);
    const after = h.fake.sendText(group, ADDRESS);
    await h.fake.waitForSent((s) => s.replyTo === after.message_id);
    expect(await h.store.getSettings({ platform: "telegram", chatId: String(group.id) })).toMatchObject({ autodetect: true });
  });

  it("refuses /autodetect on from a group member who is not an admin", async () => {
    await start();
    const group = groupChat();
    const ask = h.fake.sendText(group, "/autodetect on");
    const refusal = await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    expect(refusal.text).toBe("⚠️ Only a group admin can turn auto-detect on or off.");
    expect(h.fake.calls.some((c) => c.method === "getChatMember" && c.payload.user_id === ask.from?.id)).toBe(true);
    expect((await h.store.getSettings({ platform: "telegram", chatId: String(group.id) })).autodetect).toBeUndefined();
  });

  it("tells the admin exactly how to let the bot see group messages when privacy mode hides them", async () => {
    await start(false);
    const group = groupChat({ supergroup: true });
    const admin = fakeUser();
    h.fake.setMember(group.id, admin.id, "creator");
    const ask = h.fake.sendText(group, "/autodetect on", { from: admin });
    const answer = await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    expect(answer.text).toContain(
      `To fix it, open @BotFather, send /setprivacy, choose @${h.fake.me.username} and pick Disable, then remove me from this group and add me again ` +
        "(Telegram applies the change only when I join) — or make me an admin of this group.",
    );
  });

  it("turns auto-detect off in a private chat and then ignores pasted addresses", async () => {
    await start();
    const chat = privateChat(fakeUser());
    const off = h.fake.sendText(chat, "/autodetect off");
    expect((await h.fake.waitForSent((s) => s.replyTo === off.message_id)).text).toContain("Auto-detect is now off");
    const pasted = h.fake.sendText(chat, ADDRESS);
    const status = h.fake.sendText(chat, "/autodetect");
    expect((await h.fake.waitForSent((s) => s.replyTo === status.message_id)).text).toContain("Auto-detect is off in this chat");
    expect(h.fake.repliesTo(pasted)).toEqual([]);
  });
});
