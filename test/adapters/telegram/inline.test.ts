import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Choice } from "../../../src/core/bot-core.js";
import { fakeUser } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";
import { createTestCore } from "./test-core.js";
import { deferred, testCommands } from "./test-commands.js";

const suggestions: Choice[] = Array.from({ length: 14 }, (_, i) => ({ name: `PEPE ${i} <b>`, value: `0x${String(i).padStart(40, "0")}-eth` }));

describe("Telegram inline mode", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ core: createTestCore({ commands: testCommands({ prices: new Map(), slowGate: deferred() }), suggestions }) });
  });
  afterEach(async () => h.close());

  it("offers up to 10 token cards as articles the fake accepts", async () => {
    const id = h.fake.inlineQuery("pepe", fakeUser());
    const answer = await h.fake.waitFor((c) => c.method === "answerInlineQuery" && c.payload.inline_query_id === id);
    expect(answer.ok).toBe(true);
    const results = h.fake.inlineAnswers.get(id) as { title: string; input_message_content: { message_text: string }; reply_markup?: unknown }[];
    expect(results).toHaveLength(10);
    expect(results[0]?.title).toBe("PEPE 0 <b>");
    expect(results[0]?.input_message_content.message_text).toContain("0X0000000000000000000000000000000000000000-ETH price");
    expect(JSON.stringify(results.map((r) => r.reply_markup))).not.toContain("callback_data");
  });

  it("answers an empty query with no results", async () => {
    const id = h.fake.inlineQuery("  ", fakeUser());
    await h.fake.waitFor((c) => c.method === "answerInlineQuery" && c.payload.inline_query_id === id);
    expect(h.fake.inlineAnswers.get(id)).toEqual([]);
  });
});
