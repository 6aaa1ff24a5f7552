import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { createDiscordAdapter } from "../../../src/adapters/discord/index.js";
import { openSqliteStore } from "../../../src/store/sqlite-store.js";
import { OptionType, startFakeDiscord, type RecordedRequest } from "../../fakes/discord-api.js";
import { startHarness, type Harness } from "./harness.js";
import { createTestCore, type TestCore } from "./test-core.js";
import { PNG, testCommands, type Gate } from "./test-commands.js";

type Embed = { title?: string; description?: string; color?: number; fields?: { name: string; value: string }[]; image?: { url: string } };

function embedsOf(message: { embeds: unknown[] }): Embed[] {
  return message.embeds as Embed[];
}

function callbackType(r: RecordedRequest): number | undefined {
  return (r.body as { type?: number }).type;
}

describe("Discord slash commands, end to end against the fake", () => {
  let h: Harness;
  let core: TestCore;
  let gate: Gate;

  beforeAll(async () => {
    const t = testCommands();
    gate = t.gate();
    core = createTestCore({ commands: t.commands });
    h = await startHarness({ core, adapter: { ackWithinMs: 300 } });
  });
  afterAll(() => h.close());
  afterEach(() => {
    expect(h.fake.violations).toEqual([]);
  });

  it("answers /price with an embed, its buttons and mentions switched off", async () => {
    const ia = h.fake.chatInput({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: "pepe wif" }] });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(`expected a message, got ${answer.kind}`);
    expect(callbackType(answer.request)).toBe(4);
    expect(answer.ephemeral).toBe(false);
    const [embed] = embedsOf(answer.message);
    expect(embed?.title).toBe("Price\\: pepe, wif");
    expect(embed?.fields?.map((f) => f.name)).toEqual(["Run", "pepe", "wif"]);
    const body = answer.request.body as { data: { allowed_mentions: unknown; components: { components: { custom_id?: string; url?: string }[] }[] } };
    expect(body.data.allowed_mentions).toEqual({ parse: [] });
    const buttons = body.data.components.flatMap((r) => r.components);
    expect(buttons).toHaveLength(3);
    expect(buttons.every((b) => (b.custom_id ?? "").length <= 100)).toBe(true);
    expect(buttons[2]?.url).toBe("https://example.com/pepe");
    expect(core.calls.at(-1)?.args).toEqual(["pepe", "wif"]);
  });

  it("passes a chosen chain and an integer page to the core in argument order", async () => {
    const ia = h.fake.chatInput({
      name: "trending",
      options: [
        { name: "chain", type: OptionType.string, value: "bsc" },
        { name: "page", type: OptionType.integer, value: 2 },
      ],
    });
    const answer = await ia.settled();
    expect(answer.kind).toBe("message");
    expect(core.calls.at(-1)).toMatchObject({ command: "trending", args: ["bsc", "2"] });
  });

  it("asks for the earlier option, ephemerally, when only a later one is given", async () => {
    const ia = h.fake.chatInput({ name: "trending", options: [{ name: "page", type: OptionType.integer, value: 3 }] });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(answer.message.content).toBe("/trending needs chain when you give page.");
  });

  it("shows an error the user caused to the user alone", async () => {
    const ia = h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: "nope" }] });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(embedsOf(answer.message)[0]?.title).toBe("I don't know a token called nope.");
  });

  it("answers a crash with one short public sentence and logs it", async () => {
    const answer = await h.fake.chatInput({ name: "boom" }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(false);
    expect(embedsOf(answer.message)[0]?.title).toBe("Something went wrong on my side; it has been logged.");
    expect(JSON.stringify(answer.message)).not.toContain("kaboom");
  });

  it("defers a slow command within the window, then edits the answer in", async () => {
    const ia = h.fake.chatInput({ name: "slow" });
    const ack = await ia.acknowledged();
    expect(callbackType(ack)).toBe(5);
    expect(ack.at - ia.dispatchedAt).toBeLessThan(3000);
    gate.release();
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.request.method).toBe("PATCH");
    expect(embedsOf(answer.message)[0]?.title).toBe("Finally");
    expect((answer.request.body as { allowed_mentions: unknown }).allowed_mentions).toEqual({ parse: [] });
  });

  it("turns a slow answer that is the user's error into an ephemeral follow-up", async () => {
    const ia = h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: "slowpoke" }] });
    expect(callbackType(await ia.acknowledged())).toBe(5);
    gate.release();
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(ia.requests().map((r) => r.method)).toEqual(["POST", "DELETE", "POST"]);
  });

  it("uploads a chart as chart.png and shows it inside the embed", async () => {
    const ia = h.fake.chatInput({ name: "chart", options: [{ name: "token", type: OptionType.string, value: "pepe" }] });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.request.files.map((f) => [f.name, f.size])).toEqual([["chart.png", PNG.length]]);
    expect(embedsOf(answer.message)[0]?.image?.url).toBe("attachment://chart.png");
  });

  it("tells the user to re-register when a command is no longer known", async () => {
    const answer = await h.fake.chatInput({ name: "vanished" }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(answer.message.content).toContain("chainpulse discord register");
  });
});

describe("Discord adapter start-up and late answers", () => {
  it("stops start-up on a bad token with one clear line that does not show the token", async () => {
    const fake = await startFakeDiscord({ token: "the-right-token" });
    const store = await openSqliteStore({ path: ":memory:" });
    const adapter = createDiscordAdapter({
      token: "wrong-secret-token",
      applicationId: fake.applicationId,
      apiRoot: fake.apiRoot,
      core: createTestCore({ commands: [] }),
      logger: pino({ level: "silent" }),
    });
    const failure = await adapter.start().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(failure?.message).toBe("Discord refused the bot token (401 Unauthorized); check DISCORD_BOT_TOKEN.");
    expect(adapter.isReady()).toBe(false);
    await fake.close();
    await store.close();
  });

  it("refuses an API root with a trailing slash and says how to write it", () => {
    const make = () =>
      createDiscordAdapter({
        token: "t",
        applicationId: "1",
        apiRoot: "http://127.0.0.1:1/api/",
        core: createTestCore({ commands: [] }),
        logger: pino({ level: "silent" }),
      });
    expect(make).toThrow("The Discord API root must not end with a slash: use http://127.0.0.1:1/api");
  });

  it("finishes the answer in hand when it is stopped", async () => {
    const t = testCommands();
    const gate = t.gate();
    const h = await startHarness({ core: createTestCore({ commands: t.commands }), adapter: { ackWithinMs: 50 } });
    const ia = h.fake.chatInput({ name: "slow" });
    await ia.acknowledged();
    const stopped = h.adapter.stop();
    expect(h.adapter.isReady()).toBe(false);
    gate.release();
    await stopped;
    expect(ia.requests().map((r) => `${r.method} ${r.status}`)).toEqual(["POST 204", "PATCH 200"]);
    await h.fake.close();
    await h.store.close();
  });

  it("keeps running when Discord refuses an answer that came after 3 seconds", async () => {
    let clock = 1_000_000;
    const t = testCommands();
    const h = await startHarness({ core: createTestCore({ commands: t.commands }), fake: { now: () => clock } });
    try {
      const late = h.fake.chatInput({ name: "trending" });
      clock += 3500;
      const refused = await late.settled();
      expect(refused.kind).toBe("refused");
      expect(refused.request.response).toEqual({ message: "Unknown interaction", code: 10062 });
      expect(h.fake.violations.map((v) => v.problem)).toEqual(["interaction first answered after 3500 ms, more than 3000"]);
      const next = await h.fake.chatInput({ name: "trending" }).settled();
      expect(next.kind).toBe("message");
      expect(h.logs.some((l) => l.includes('"code":10062'))).toBe(true);
      expect(h.adapter.isReady()).toBe(true);
    } finally {
      await h.close();
    }
  });
});
