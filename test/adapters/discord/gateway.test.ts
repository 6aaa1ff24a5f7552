import { describe, expect, it } from "vitest";
import pino from "pino";
import { GatewayIntentBits } from "discord.js";
import { DISALLOWED_INTENTS } from "../../../src/adapters/discord/login.js";
import { createDiscordAdapter } from "../../../src/adapters/discord/index.js";
import { messages } from "../../../src/i18n/index.js";
import { openSqliteStore } from "../../../src/store/sqlite/store.js";
import { startFakeDiscord, type FakeMessage } from "../../fakes/discord-api.js";
import type { Command } from "../../../src/core/command.js";
import { startRealCore } from "../real-core.js";
import { startHarness } from "./harness.js";
import { deferred } from "../../deferred.js";

/** A command that answers when the test lets it: Discord's deferral under test. */
function slowCommand(gate: Promise<void>): Command {
  return {
    name: "slow",
    description: "Waits for the test to release it",
    args: [],
    examples: ["/slow"],
    run: async () => {
      await gate;
      return { title: "slow answer", tone: "info", blocks: [], actions: [] };
    },
  };
}

describe("Discord gateway intents", () => {
  it("identifies with the Guilds intent only by default", async () => {
    const h = await startHarness({});
    try {
      expect(h.fake.identifies.map((i) => i.intents)).toEqual([GatewayIntentBits.Guilds]);
    } finally {
      await h.close();
    }
  });

  it("adds Guild Messages and Message Content when message content is on", async () => {
    const h = await startHarness({ adapter: { messageContent: true } });
    try {
      const wanted = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent;
      expect(h.fake.identifies.map((i) => i.intents)).toEqual([wanted]);
    } finally {
      await h.close();
    }
  });

  it("tells the operator how to fix it when Discord refuses the message-content intent", async () => {
    const fake = await startFakeDiscord({ refuseIdentify: { code: 4014, reason: "Disallowed intent(s)." } });
    const store = await openSqliteStore({ path: ":memory:" });
    const real = await startRealCore({ store });
    try {
      const adapter = createDiscordAdapter({
        token: fake.token,
        applicationId: fake.applicationId,
        apiRoot: fake.apiRoot,
        core: real.core,
        logger: pino({ level: "silent" }),
        messageContent: true,
      });
      const failure = await adapter.start().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(failure?.message).toBe(DISALLOWED_INTENTS);
      expect(failure?.message).toContain("DISCORD_MESSAGE_CONTENT=false");
      expect(adapter.isReady()).toBe(false);
    } finally {
      await fake.close();
      await real.close();
      await store.close();
    }
  });
});

describe("Discord client errors and REST refusals", () => {
  it("logs a broken gateway connection and keeps answering commands after reconnecting", async () => {
    const h = await startHarness({});
    try {
      h.fake.corruptGateway();
      expect(await h.logged("discord gateway error")).toMatch(/opcode/i);
      await h.fake.sessions(2);
      const answer = await h.fake.chatInput({ name: "trending" }).settled();
      expect(answer.kind).toBe("message");
      expect(h.adapter.isReady()).toBe(true);
    } finally {
      await h.close();
    }
  });

  it("reports every 429 from Discord's REST to onRateLimited and still delivers the answer", async () => {
    const limited: [string, number][] = [];
    const h = await startHarness({
      adapter: { onRateLimited: (route, ms) => limited.push([route, ms]) },
    });
    try {
      h.fake.rateLimit({ method: "POST", pathPrefix: "/interactions/", retryAfterSeconds: 0.2 });
      const ia = h.fake.chatInput({ name: "trending" });
      await h.fake.waitFor((r) => r.path === `/interactions/${ia.id}/${ia.token}/callback` && r.status === 204);
      expect(ia.requests().map((r) => r.status)).toEqual([429, 204]);
      const shown = [...h.fake.messages.values()].map((m) => (m.embeds as { title?: string }[])[0]?.title);
      expect(shown).toContainEqual(expect.stringMatching(/^Trending on eth · page 1/));
      expect(limited).toEqual([["/interactions/:id/:token/callback", 200]]);
      expect(h.fake.violations).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it("tells the user in a private follow-up when Discord refuses the deferred answer", async () => {
    const gate = deferred();
    const h = await startHarness({ real: { extraCommands: [slowCommand(gate.promise)] }, adapter: { ackWithinMs: 50 } });
    try {
      const ia = h.fake.chatInput({ name: "slow" });
      await ia.acknowledged();
      const original = `/webhooks/${h.fake.applicationId}/${ia.token}/messages/@original`;
      h.fake.refuse({ method: "PATCH", pathPrefix: original, status: 400, code: 50035, message: "Invalid Form Body" });
      gate.resolve();
      const followUp = await h.fake.waitFor((r) => r.method === "POST" && r.path === `/webhooks/${h.fake.applicationId}/${ia.token}`);
      const message = h.fake.messages.get((followUp.response as FakeMessage).id);
      expect(message?.content).toBe(messages().translator("en").t("discord-deferred-failed"));
      expect((message?.flags ?? 0) & 64).toBe(64);
      expect(ia.requests().map((r) => `${r.method} ${r.status}`)).toEqual(["POST 204", "PATCH 400", "POST 200"]);
      expect(await h.logged("discord interaction failed")).toContain('"code":50035');
    } finally {
      await h.close();
    }
  });
});
