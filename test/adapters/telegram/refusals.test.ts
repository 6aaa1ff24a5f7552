/** What a Bot API refusal means for the chat a scheduled post went to (adapters/telegram/errors.ts). */
import { describe, expect, it } from "vitest";
import { classifyRefusal } from "../../../src/adapters/telegram/errors.js";

describe("a refusal to post", () => {
  it.each([
    [400, "Bad Request: not enough rights to send text messages to the chat"],
    [400, "Bad Request: have no rights to send a message"],
    [403, "Forbidden: CHAT_WRITE_FORBIDDEN"],
    [400, "Bad Request: need administrator rights in the channel chat"],
  ])("reads %i %s as a chat where the bot may not post: its digest pauses", (code, description) => {
    expect(classifyRefusal(code, description)).toEqual({ kind: "forbidden", reason: description });
  });

  it("keeps a gone chat gone and any other refusal a failure", () => {
    expect(classifyRefusal(403, "Forbidden: bot was kicked from the supergroup chat").kind).toBe("gone");
    expect(classifyRefusal(400, "Bad Request: message is too long")).toEqual({ kind: "failed", reason: "400 Bad Request: message is too long" });
  });
});
