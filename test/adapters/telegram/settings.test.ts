/** /settings on Telegram with the real core: what the chat's language follows, and a new language shown whole at once. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";

describe("Telegram /settings", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({});
  });
  afterAll(async () => h.close());

  async function say(chat: Parameters<typeof h.fake.sendText>[0], text: string, from = fakeUser()): Promise<string> {
    const ask = h.fake.sendText(chat, text, { from });
    return (await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 10_000 })).text;
  }

  it("writes the whole answer to /settings language zh in Chinese, its footer too", async () => {
    const user = fakeUser();
    const answer = await say(privateChat(user), "/settings language zh", user);
    expect(answer).toContain("已保存：语言 简体中文");
    expect(answer).toContain("演示数据（沙盒）");
    expect(answer).not.toContain("demo data");
  });

  it("says a group's language is the default and a private chat's follows the app, and clears them as such", async () => {
    const group = groupChat();
    const admin = fakeUser();
    h.fake.setMember(group.id, admin.id, "administrator");
    expect(await say(group, "/settings", admin)).toContain("English (the default for groups)");
    expect(await say(group, "/settings language auto", admin)).toContain("Saved: language back to the default");
    const user = fakeUser();
    expect(await say(privateChat(user), "/settings", user)).toContain("English (follows your app's language)");
    expect(await say(privateChat(user), "/settings language auto", user)).toContain("Saved: language follows your app's language");
  });
});
