import { afterEach, describe, expect, it } from "vitest";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";

describe("Telegram auto-detect on the real core", () => {
  let h: Harness;
  const start = async (readsAllGroupMessages = false): Promise<Harness> => (h = await startHarness({ fake: { readsAllGroupMessages } }));
  afterEach(async () => h.close());

  const sandboxToken = () => {
    const token = h.real?.sandbox.market.tokens.find((t) => t.chain === "eth");
    if (token === undefined) throw new Error("the sandbox has no eth token");
    return token;
  };

  it("answers a pasted address in a private chat with the card, and ordinary text with nothing", async () => {
    await start();
    const token = sandboxToken();
    const chat = privateChat(fakeUser());
    const chatter = h.fake.sendText(chat, "gm, what a day");
    const pasted = h.fake.sendText(chat, `look at ${token.address}`);
    const card = await h.fake.waitForSent((s) => s.replyTo === pasted.message_id);
    expect(card.text).toContain(token.symbol);
    expect(h.fake.repliesTo(chatter)).toEqual([]);
  });

  it("answers an anonymous admin's paste, written as the group, and still ignores another bot's", async () => {
    await start(true);
    const token = sandboxToken();
    const group = groupChat({ supergroup: true });
    const admin = fakeUser();
    h.fake.setMember(group.id, admin.id, "administrator");
    const on = h.fake.sendText(group, "/autodetect on", { from: admin });
    await h.fake.waitForSent((s) => s.replyTo === on.message_id);
    const anonymous = { ...fakeUser({ name: "Group" }), id: 1087968824, is_bot: true };
    const pasted = h.fake.sendText(group, token.address, { from: anonymous, senderChat: group });
    expect((await h.fake.waitForSent((s) => s.replyTo === pasted.message_id)).text).toContain(token.symbol);
    const byBot = h.fake.sendText(group, token.address, { from: { ...fakeUser({ name: "other bot" }), is_bot: true } });
    const after = h.fake.sendText(group, "/autodetect", { from: admin });
    await h.fake.waitForSent((s) => s.replyTo === after.message_id);
    expect(h.fake.repliesTo(byBot)).toEqual([]);
  });

  it("counts each group's anonymous admins as their own user, not one shared across every group", async () => {
    h = await startHarness({ fake: { readsAllGroupMessages: true }, real: { budget: { perUser: 10 } } });
    const anonymous = { ...fakeUser({ name: "Group" }), id: 1087968824, is_bot: true };
    // Ten commands a minute is one user's budget: twelve groups' anonymous admins are twelve users.
    const asked = Array.from({ length: 12 }, () => {
      const group = groupChat({ supergroup: true });
      return h.fake.sendText(group, "/chains", { from: anonymous, senderChat: group });
    });
    for (const a of asked) expect((await h.fake.waitForSent((s) => s.replyTo === a.message_id)).text).not.toMatch(/more commands this minute/);
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

  it("promises no card for a paste in a group where privacy mode hides it", async () => {
    await start(false);
    const group = groupChat();
    const admin = fakeUser();
    h.fake.setMember(group.id, admin.id, "administrator");
    const ask = h.fake.sendText(group, "/autodetect on", { from: admin });
    const answer = (await h.fake.waitForSent((s) => s.replyTo === ask.message_id)).text;
    expect(answer).toContain("BotFather");
    expect(answer).not.toContain("I will answer with its token card");
  });

  it("tells the person in a private chat that the switch is theirs", async () => {
    await start();
    const chat = privateChat(fakeUser());
    const ask = h.fake.sendText(chat, "/autodetect");
    const answer = (await h.fake.waitForSent((s) => s.replyTo === ask.message_id)).text;
    expect(answer).toContain("I will answer with its token card");
    expect(answer).toContain("Turn it on or off with /autodetect on or /autodetect off.");
    expect(answer).not.toContain("An admin");
  });

  it("gives no privacy advice where the bot reads every group message", async () => {
    await start(true);
    const group = groupChat();
    const admin = fakeUser();
    h.fake.setMember(group.id, admin.id, "administrator");
    const ask = h.fake.sendText(group, "/autodetect on", { from: admin });
    const answer = await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    expect(answer.text).toContain("Auto-detect is now on in this chat");
    expect(answer.text).not.toContain("BotFather");
  });

  it("turns auto-detect off in a private chat and then ignores pasted addresses", async () => {
    await start();
    const chat = privateChat(fakeUser());
    const off = h.fake.sendText(chat, "/autodetect off");
    expect((await h.fake.waitForSent((s) => s.replyTo === off.message_id)).text).toContain("Auto-detect is now off");
    const pasted = h.fake.sendText(chat, sandboxToken().address);
    const status = h.fake.sendText(chat, "/autodetect");
    expect((await h.fake.waitForSent((s) => s.replyTo === status.message_id)).text).toContain("Auto-detect is off in this chat");
    expect(h.fake.repliesTo(pasted)).toEqual([]);
  });
});
