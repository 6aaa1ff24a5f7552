import { afterEach, describe, expect, it } from "vitest";
import { fakeUser, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";

describe("Telegram on a Bot API server that lacks optional methods", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("polls and answers although the server knows neither deleteWebhook nor setMyCommands", async () => {
    h = await startHarness({ noStart: true });
    for (const method of ["deleteWebhook", "setMyCommands"]) {
      h.fake.fail({ method, error: { error_code: 404, description: "Not Found: method not found" } });
    }
    await h.adapter.start();
    expect(h.adapter.isReady()).toBe(true);
    const user = fakeUser();
    const asked = h.fake.sendText(privateChat(user), "/price pepe", { from: user });
    const reply = await h.fake.waitForSent((s) => s.replyTo === asked.message_id);
    expect(reply.text).toMatch(/PEPE/);
    expect(reply.text).toMatch(/\$\d/);
  });
});
