/** Discord slash commands on the real core over the sandbox market; a slow market is a sandbox latency the test releases. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { createDiscordAdapter } from "../../../src/adapters/discord/index.js";
import type { ChartRenderer } from "../../../src/chart/types.js";
import { openSqliteStore } from "../../../src/store/sqlite/store.js";
import { OptionType, startFakeDiscord, type RecordedRequest } from "../../fakes/discord-api.js";
import { startRealCore } from "../real-core.js";
import { PNG, startHarness, type Harness } from "./harness.js";
import { deferred } from "../../deferred.js";

const pngCharts: ChartRenderer = { render: async () => PNG, close: async () => undefined };

/** Text as Discord shows it: Markdown escapes undone. */
function unescape(markdown: string | undefined): string {
  return (markdown ?? "").replace(/\\(.)/g, "$1");
}

type Embed = { title?: string; description?: string; color?: number; fields?: { name: string; value: string }[]; image?: { url: string } };

function embedsOf(message: { embeds: unknown[] }): Embed[] {
  return message.embeds as Embed[];
}

function callbackType(r: RecordedRequest): number | undefined {
  return (r.body as { type?: number }).type;
}

describe("Discord slash commands, end to end against the fake", () => {
  let h: Harness;
  /** Every market answer waits for this while the sandbox's latency fault is set. */
  let gate = deferred();

  beforeAll(async () => {
    h = await startHarness({ real: { sandbox: { delay: () => gate.promise }, charts: pngCharts }, adapter: { ackWithinMs: 300 } });
  });
  afterAll(async () => {
    gate.resolve();
    await h.close();
  });
  afterEach(() => {
    gate.resolve();
    h.real!.sandbox.clearFaults();
    expect(h.fake.violations).toEqual([]);
  });

  /** Market answers wait until `gate` opens. */
  function slowMarket(): void {
    gate = deferred();
    h.real!.sandbox.setFaults([{ kind: "latency", ms: 1 }]);
  }

  it("answers /price with an embed, its buttons and mentions switched off", async () => {
    const ia = h.fake.chatInput({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: "pepe wif" }] });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(`expected a message, got ${answer.kind}`);
    expect(answer.ephemeral).toBe(false);
    const shown = unescape(JSON.stringify(embedsOf(answer.message)));
    expect(shown).toContain("PEPE");
    expect(shown).toContain("WIF");
    // The answer itself (type 4), or the edit of a deferred one when the market was slow to answer.
    type Sent = { allowed_mentions: unknown; components: { components: { custom_id?: string; url?: string }[] }[] };
    const request = answer.request.body as { type?: number; data?: Sent } & Partial<Sent>;
    const sent = (request.type === 4 ? request.data : request) as Sent;
    expect(sent.allowed_mentions).toEqual({ parse: [] });
    const buttons = sent.components.flatMap((r) => r.components);
    expect(buttons.length).toBeGreaterThan(0);
    expect(buttons.every((b) => b.custom_id !== undefined && b.custom_id.length <= 100)).toBe(true);
  });

  it("passes a chosen chain and an integer page to the core by name", async () => {
    const ia = h.fake.chatInput({
      name: "trending",
      options: [
        { name: "chain", type: OptionType.string, value: "bsc" },
        { name: "page", type: OptionType.integer, value: 2 },
      ],
    });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(unescape(embedsOf(answer.message)[0]?.title)).toMatch(/^Trending on bsc · page 2 of \d+$/);
  });

  it("binds a later option by its name when an earlier one is left out", async () => {
    const ia = h.fake.chatInput({ name: "trending", options: [{ name: "page", type: OptionType.integer, value: 3 }] });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(false);
    expect(unescape(embedsOf(answer.message)[0]?.title)).toMatch(/ · page 3 of \d+$/);
  });

  it("shows an error the user caused to the user alone", async () => {
    const ia = h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: "nopenopenope" }] });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(unescape(embedsOf(answer.message)[0]?.title)).toMatch(/nopenopenope/);
  });

  it("answers a failing market with one short public sentence that shows none of its detail", async () => {
    h.real!.sandbox.setFaults([{ kind: "http5xx", status: 503 }]);
    const answer = await h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: "trump" }] }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(false);
    const title = unescape(embedsOf(answer.message)[0]?.title);
    expect(title).toMatch(/market service/i);
    expect(title.split("\n")).toHaveLength(1);
    // What the person reads: the content and the embeds, not the ids and the timestamp (which may hold "503").
    const { content, embeds } = answer.message as { content?: unknown; embeds?: unknown };
    expect(JSON.stringify({ content, embeds })).not.toMatch(/503|Service Unavailable|<html/i);
  });

  it("defers a command on a slow market within the window, then edits the answer in", async () => {
    slowMarket();
    const ia = h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: "bonk" }] });
    const ack = await ia.acknowledged();
    expect(callbackType(ack)).toBe(5);
    expect(ack.at - ia.dispatchedAt).toBeLessThan(3000);
    gate.resolve();
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.request.method).toBe("PATCH");
    expect(unescape(embedsOf(answer.message)[0]?.title)).toMatch(/BONK/);
    expect((answer.request.body as { allowed_mentions: unknown }).allowed_mentions).toEqual({ parse: [] });
  });

  it("turns a slow answer that is the user's error into an ephemeral follow-up", async () => {
    slowMarket();
    const ia = h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: "slowpoke" }] });
    expect(callbackType(await ia.acknowledged())).toBe(5);
    gate.resolve();
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

  it("lists /help's commands in the core's order, then how to name a token", async () => {
    const answer = await h.fake.chatInput({ name: "help" }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    const [embed] = embedsOf(answer.message);
    expect(h.core.commands.length).toBeGreaterThan(25);
    const lines = unescape(embed?.description).split("\n");
    expect(lines.filter((l) => l.startsWith("/")).map((l) => /^\/([^\s:]+)/.exec(l)?.[1])).toEqual(h.core.commands.map((c) => c.name));
    expect(lines.at(-1)).toMatch(/^A token can be a symbol/);
    expect(embed?.fields).toBeUndefined();
  });

  it("offers in /help <command> no alias Discord has no command for, and no example typed with one", async () => {
    for (const [name, alias] of [["token", "detail"], ["lb", "leaderboard"]] as const) {
      const answer = await h.fake.chatInput({ name: "help", options: [{ name: "command", type: OptionType.string, value: name }] }).settled();
      if (answer.kind !== "message") throw new Error(answer.kind);
      const shown = JSON.stringify(embedsOf(answer.message));
      expect(shown).toContain(`/${name}`);
      expect(shown).not.toContain(`/${alias}`);
    }
  });

  it("writes /liquidity's kinds of records in the server's language, not the service's words", async () => {
    const pair = h.real!.sandbox.market.tokens.find((t) => t.chain === "eth" && t.pairs.length > 0)?.pairs[0];
    if (pair === undefined) throw new Error("the sandbox has no eth pair");
    const options = [{ name: "pair", type: OptionType.string, value: `${pair.address}-eth` }];
    const answer = await h.fake.chatInput({ name: "liquidity", options, guildLocale: "zh-CN" }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    const rows = unescape(embedsOf(answer.message)[0]?.description).split("\n").slice(2, -1);
    const kinds = new Set(rows.map((row) => row.trim().split(/\s+/)[1]));
    expect(rows.length).toBeGreaterThan(0);
    expect([...kinds].every((k) => k === "添加" || k === "移除")).toBe(true);
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
    const real = await startRealCore({ store });
    const adapter = createDiscordAdapter({
      token: "wrong-secret-token",
      applicationId: fake.applicationId,
      apiRoot: fake.apiRoot,
      core: real.core,
      logger: pino({ level: "silent" }),
    });
    const failure = await adapter.start().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(failure?.message).toBe("Discord refused the bot token (401 Unauthorized); check DISCORD_BOT_TOKEN.");
    expect(adapter.isReady()).toBe(false);
    await fake.close();
    await real.close();
    await store.close();
  });

  it("refuses an API root with a trailing slash and says how to write it", async () => {
    const store = await openSqliteStore({ path: ":memory:" });
    const real = await startRealCore({ store });
    const make = () =>
      createDiscordAdapter({
        token: "t",
        applicationId: "1",
        apiRoot: "http://127.0.0.1:1/api/",
        core: real.core,
        logger: pino({ level: "silent" }),
      });
    try {
      expect(make).toThrow("The Discord API root must not end with a slash: use http://127.0.0.1:1/api");
    } finally {
      await real.close();
      await store.close();
    }
  });

  it("finishes the answer in hand when it is stopped", async () => {
    const gate = deferred();
    const h = await startHarness({ real: { sandbox: { delay: () => gate.promise } }, adapter: { ackWithinMs: 50 } });
    h.real!.sandbox.setFaults([{ kind: "latency", ms: 1 }]);
    const ia = h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: "pepe" }] });
    await ia.acknowledged();
    const stopped = h.adapter.stop();
    expect(h.adapter.isReady()).toBe(false);
    gate.resolve();
    await stopped;
    expect(ia.requests().map((r) => `${r.method} ${r.status}`)).toEqual(["POST 204", "PATCH 200"]);
    await h.close();
  });

  it("keeps running when Discord refuses an answer that came after 3 seconds", async () => {
    let clock = 1_000_000;
    const h = await startHarness({ fake: { now: () => clock } });
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
