/** The real core on the sandbox market behind the Telegram adapter: every command, upstream faults, a slow upstream. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCommandList } from "../../../src/core/commands/index.js";
import { HOSTILE_TOKENS } from "../../../src/sandbox/index.js";
import { fakeUser, privateChat } from "../../fakes/telegram-api.js";
import { type SandboxHarness, startSandboxHarness } from "./sandbox-harness.js";
import { deferred } from "../../deferred.js";

describe("Telegram on the sandbox market", () => {
  let h: SandboxHarness;
  let gate = deferred();
  beforeAll(async () => {
    gate.resolve();
    h = await startSandboxHarness({ sandbox: { delay: () => gate.promise } });
  });
  afterAll(async () => {
    gate.resolve();
    await h.close();
  });

  it("answers every example of every command with exactly one reply that the fake accepts", async () => {
    const chat = privateChat(fakeUser());
    const examples = createCommandList().flatMap((c) => c.examples);
    expect(examples.length).toBeGreaterThan(10);
    const asks = examples.map((text) => h.fake.sendText(chat, text));
    for (const ask of asks) await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 10_000 });
    for (const ask of asks) expect(h.fake.repliesTo(ask), ask.text).toHaveLength(1);
    expect(h.fake.calls.filter((c) => c.chatId === String(chat.id) && !c.ok)).toEqual([]);
  });

  it("answers with one honest sentence when the market service fails", async () => {
    h.sandbox.setFaults([{ kind: "http5xx", status: 503 }]);
    try {
      const ask = h.fake.sendText(privateChat(fakeUser()), `/risk ${HOSTILE_TOKENS[8]!.id}`);
      const reply = await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 10_000 });
      expect(reply.text.split("\n")).toHaveLength(1);
      expect(reply.text).toMatch(/market service/i);
    } finally {
      h.sandbox.clearFaults();
    }
  });

  it("keeps answering another chat while one waits on a slow market call", async () => {
    gate = deferred();
    h.sandbox.setFaults([{ kind: "latency", endpoints: ["topHolders"], ms: 5000 }]);
    try {
      const slow = h.fake.sendText(privateChat(fakeUser()), `/holders ${HOSTILE_TOKENS[12]!.id}`);
      const quick = h.fake.sendText(privateChat(fakeUser()), "/chains");
      await h.fake.waitForSent((s) => s.replyTo === quick.message_id, { timeoutMs: 10_000 });
      expect(h.fake.repliesTo(slow)).toEqual([]);
      gate.resolve();
      await h.fake.waitForSent((s) => s.replyTo === slow.message_id, { timeoutMs: 10_000 });
    } finally {
      gate.resolve();
      h.sandbox.clearFaults();
    }
  });
});
