import { describe, expect, it } from "vitest";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatEvents } from "../../src/core/chat-events.js";
import type { ChatContext } from "../../src/core/command.js";
import type { Reply } from "../../src/core/reply.js";
import { wordsFor } from "../../src/i18n/index.js";
import { instrumentCore } from "../../src/ops/instrument-core.js";
import { createMetrics } from "../../src/ops/metrics.js";

const reply: Reply = { title: "ok", tone: "info", blocks: [], actions: [] };

/** A core that records every call with its arguments. */
function recordingCore() {
  const calls: [string, unknown[]][] = [];
  const chats: ChatEvents = { left: async () => undefined, moved: async () => undefined, inServer: async () => true, leftServer: async () => undefined, serverOf: async () => undefined };
  const core: BotCore = {
    commands: [{ name: "price", description: "Price", args: [], examples: [], run: async () => reply }],
    handleText: async (...a) => (calls.push(["handleText", a]), reply),
    command: async (...a) => (calls.push(["command", a]), reply),
    run: async (...a) => (calls.push(["run", a]), reply),
    runNamed: async (...a) => (calls.push(["runNamed", a]), reply),
    post: async (...a) => (calls.push(["post", a]), reply),
    render: async (...a) => (calls.push(["render", a]), reply),
    detect: async (...a) => (calls.push(["detect", a]), reply),
    inlineCards: async (...a) => (calls.push(["inlineCards", a]), { cards: [] }),
    suggestTokens: (...a) => (calls.push(["suggestTokens", a]), []),
    callerWords: async (...a) => (calls.push(["callerWords", a]), wordsFor("en")),
    chats,
  };
  return { core, calls };
}

describe("the core's metrics decorator", () => {
  it("passes every method its arguments unchanged, options included (regression: Token card lost `asked`)", async () => {
    const { core, calls } = recordingCore();
    const wrapped = instrumentCore(core, createMetrics({ processMetrics: false }));
    const chat: ChatContext = { platform: "discord", chatId: "1", userId: "2", isPrivate: false, isAdmin: async () => false };
    const answering = { onFresher: async () => undefined };
    const named = new Map([["tokens", "pepe"]]);
    await wrapped.command(chat, { name: "price", args: "pepe" }, answering);
    await wrapped.run(chat, "price", ["pepe"], answering);
    await wrapped.runNamed(chat, "price", named, answering);
    await wrapped.post({ platform: "discord", chatId: "1" }, "trending", ["eth", "1", "5"], { lane: "alerts" });
    await wrapped.render({ platform: "discord", chatId: "1" }, { kind: "digest-paused", chain: "eth" });
    await wrapped.detect(chat, "0xabc", { asked: true });
    await wrapped.inlineCards(chat, "pepe", 10);
    wrapped.suggestTokens("pe");
    expect(calls).toEqual([
      ["command", [chat, { name: "price", args: "pepe" }, answering]],
      ["run", [chat, "price", ["pepe"], answering]],
      ["runNamed", [chat, "price", named, answering]],
      ["post", [{ platform: "discord", chatId: "1" }, "trending", ["eth", "1", "5"], { lane: "alerts" }]],
      ["render", [{ platform: "discord", chatId: "1" }, { kind: "digest-paused", chain: "eth" }]],
      ["detect", [chat, "0xabc", { asked: true }]],
      ["inlineCards", [chat, "pepe", 10]],
      ["suggestTokens", ["pe"]],
    ]);
    expect(wrapped.chats).toBe(core.chats);
  });

  it("reads a typed message once and hands the core the parsed call, not the text", async () => {
    const { core, calls } = recordingCore();
    const wrapped = instrumentCore(core, createMetrics({ processMetrics: false }));
    const chat: ChatContext = { platform: "console", chatId: "1", userId: "2", isPrivate: true, isAdmin: async () => true };
    await wrapped.handleText(chat, "/Price@chainpulse_bot pepe  wif");
    await wrapped.handleText(chat, "hello");
    expect(calls).toEqual([
      ["command", [chat, { name: "price", args: "pepe  wif" }, undefined]],
      ["handleText", [chat, "hello", undefined]],
    ]);
  });

  it("counts commands by name and outcome, and detected cards as detect", async () => {
    const { core } = recordingCore();
    const metrics = createMetrics({ processMetrics: false });
    const wrapped = instrumentCore(core, metrics);
    const chat: ChatContext = { platform: "telegram", chatId: "1", userId: "2", isPrivate: false, isAdmin: async () => false };
    await wrapped.handleText(chat, "/price pepe");
    await wrapped.command(chat, { name: "price", args: "wif" });
    await wrapped.handleText(chat, "/nosuch");
    await wrapped.detect(chat, "0xabc");
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/chainpulse_commands_total\{command="price",outcome="ok"\} 2/);
    expect(text).toMatch(/chainpulse_commands_total\{command="unknown",outcome="ok"\} 1/);
    expect(text).toMatch(/chainpulse_commands_total\{command="detect",outcome="ok"\} 1/);
  });
});
