import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { buildCore, type BuiltCore } from "../../src/app/build-core.js";
import type { ChatContext } from "../../src/core/command.js";
import { loadConfig } from "../../src/config.js";

/**
 * /help shows each command's examples: a newcomer on demo data runs them first, so every one of
 * them must answer, not only the first (regression: /liquidity's and /pairs' examples named
 * real-world addresses the sandbox did not know).
 */
describe("every documented example on demo data", () => {
  let built: BuiltCore;
  let user = 0;

  beforeAll(async () => {
    built = await buildCore(loadConfig({ DATABASE_PATH: ":memory:" }), { log: pino({ level: "silent" }) });
  });
  afterAll(async () => {
    await built.close();
  });

  /** An admin of `chatId`, new each time so that the per-user budget never speaks. */
  function admin(chatId: string): ChatContext {
    user += 1;
    return { platform: "telegram", chatId, userId: `u${user}`, isPrivate: false, isAdmin: async () => true };
  }

  /** What a command's examples act on, made first as a member would: a call by ana, a second feed. */
  const seeds: ReadonlyMap<string, () => Promise<unknown>> = new Map([
    ...["lb", "calls", "pnl"].map((name): [string, () => Promise<unknown>] => [
      name,
      () => built.core.handleText({ ...admin(`chat-${name}`), member: { name: "ana", handle: "ana", kind: "person" } }, "/token pepe"),
    ]),
    ["stopbuys", () => built.core.handleText(admin("buys"), "/buys wif")],
  ]);

  it("answers every example of every command without an error", async () => {
    const failures: string[] = [];
    for (const cmd of built.core.commands) {
      await seeds.get(cmd.name)?.();
      // The digest commands share one chat, so /unsubscribe finds what /subscribe made.
      const chatId = ["subscribe", "unsubscribe", "subscriptions"].includes(cmd.name)
        ? "digests"
        // Likewise /unalert and /rearm act on what /alert made, /unwatch on what /watch added.
        : ["alert", "alerts", "rearm", "unalert"].includes(cmd.name)
          ? "alerts"
          : ["watch", "unwatch", "watchlist"].includes(cmd.name)
            ? "watchlist"
            // /stopbuys stops what /buys started (and the seed's second feed, for /stopbuys all).
            : ["buys", "stopbuys"].includes(cmd.name) ? "buys" : `chat-${cmd.name}`;
      for (const example of cmd.examples) {
        const reply = await built.core.handleText(admin(chatId), example);
        if (reply === null || reply.error !== undefined) failures.push(`${example} → ${reply === null ? "no answer" : `${reply.error}: ${reply.title}`}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
