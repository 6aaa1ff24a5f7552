/**
 * Interactions over HTTP: the fake Discord POSTs each interaction, signed with the
 * application's Ed25519 key, to the adapter's interactions route on the real ops server, and
 * takes the HTTP answer as its first response, as Discord does for an application with an
 * interactions endpoint URL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { createDiscordAdapter, type DiscordAdapter } from "../../../src/adapters/discord/index.js";
import { createMetrics } from "../../../src/ops/metrics.js";
import { startOpsServer, type OpsServer } from "../../../src/ops/http-server.js";
import { OptionType, startFakeDiscord, type FakeDiscord, type FakeMessage, type RecordedRequest } from "../../fakes/discord-api.js";
import { createTestCore, type TestCore } from "./test-core.js";
import { PNG, testCommands, type Gate } from "./test-commands.js";

function callbackType(r: RecordedRequest): number | undefined {
  return (r.body as { type?: number } | undefined)?.type;
}

function titleOf(message: FakeMessage): string | undefined {
  return (message.embeds[0] as { title?: string } | undefined)?.title;
}

describe("Discord interactions over HTTP on the ops port", () => {
  let fake: FakeDiscord;
  let core: TestCore;
  let gate: Gate;
  let adapter: DiscordAdapter;
  let ops: OpsServer;
  let url: string;

  beforeAll(async () => {
    const t = testCommands();
    gate = t.gate();
    core = createTestCore({ commands: t.commands, suggestions: [{ name: "PEPE · eth", value: "pepe-eth" }] });
    fake = await startFakeDiscord();
    const logger = pino({ level: "silent" });
    adapter = createDiscordAdapter({
      token: fake.token,
      applicationId: fake.applicationId,
      apiRoot: fake.apiRoot,
      core,
      logger,
      ackWithinMs: 300,
      publicKey: fake.publicKey,
    });
    const route = adapter.interactions;
    if (route === undefined) throw new Error("no interactions route with a public key");
    ops = await startOpsServer({
      host: "127.0.0.1",
      port: 0,
      metrics: createMetrics(),
      checks: [],
      logger,
      routes: new Map([[route.path, route.handler]]),
    });
    url = `http://127.0.0.1:${ops.port}${route.path}`;
    await adapter.start();
    fake.deliverOverHttp(url);
  });
  afterAll(async () => {
    await adapter.stop();
    await ops.close();
    await fake.close();
  });
  afterEach(() => {
    expect(fake.violations).toEqual([]);
  });

  it("serves the interactions route at /discord/interactions", () => {
    expect(new URL(url).pathname).toBe("/discord/interactions");
  });

  it("answers a signed slash command in the HTTP answer itself", async () => {
    const ia = fake.chatInput({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: "pepe" }] });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(callbackType(answer.request)).toBe(4);
    expect(titleOf(answer.message)).toBe("Price\\: pepe");
    expect(core.calls.at(-1)).toMatchObject({ command: "price", args: ["pepe"] });
    // The answer went back over HTTP only, never also to Discord's callback endpoint.
    expect(ia.requests().filter((r) => r.path.endsWith("/callback"))).toEqual([answer.request]);
  });

  it("answers PING with PONG", async () => {
    const res = await fake.postSigned(url, { id: "123456789012345678", application_id: fake.applicationId, type: 1, token: "ping-token", version: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 1 });
  });

  it("refuses a badly signed interaction with 401 and runs nothing", async () => {
    const calls = core.calls.length;
    const payload = { id: "223456789012345678", application_id: fake.applicationId, type: 2, token: "t", data: { name: "price", type: 1, options: [{ name: "tokens", type: 3, value: "pepe" }] } };
    const res = await fake.postSigned(url, payload, { wrongKey: true });
    expect(res.status).toBe(401);
    const unsigned = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
    expect(unsigned.status).toBe(401);
    expect(core.calls.length).toBe(calls);
  });

  it("defers a slow command in the HTTP answer within Discord's 3 s, then edits the answer in through REST", async () => {
    const ia = fake.chatInput({ name: "slow" });
    const ack = await ia.acknowledged();
    expect(ack.status).toBe(204);
    expect(callbackType(ack)).toBe(5);
    gate.release();
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.request.method).toBe("PATCH");
    expect(answer.request.path).toMatch(/\/messages\/@original$/);
    expect(titleOf(answer.message)).toBe("Finally");
  });

  it("defers a chart in the HTTP answer, which takes no files, and puts it in as chart.png through the webhook", async () => {
    const ia = fake.chatInput({ name: "chart", options: [{ name: "token", type: OptionType.string, value: "pepe" }] });
    const ack = await ia.acknowledged();
    expect(callbackType(ack)).toBe(5);
    expect(ack.files).toEqual([]);
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(false);
    expect(answer.request.method).toBe("PATCH");
    expect(answer.request.files.map((f) => [f.name, f.size])).toEqual([["chart.png", PNG.length]]);
    expect((answer.message.embeds[0] as { image?: { url: string } }).image?.url).toBe("attachment://chart.png");
  });

  it("answers autocomplete and a button press over HTTP", async () => {
    const suggested = await fake.autocomplete({ name: "token", options: [{ name: "token", type: OptionType.string, value: "pe", focused: true }] }).settled();
    if (suggested.kind !== "choices") throw new Error(suggested.kind);
    expect(suggested.choices).toEqual([{ name: "PEPE · eth", value: "pepe-eth" }]);

    const first = await fake.chatInput({ name: "trending", options: [{ name: "chain", type: OptionType.string, value: "bsc" }] }).settled();
    if (first.kind !== "message") throw new Error(first.kind);
    const next = (first.message.components as { components: { custom_id?: string; label: string }[] }[])
      .flatMap((r) => r.components)
      .find((b) => b.label === "Next")?.custom_id;
    if (next === undefined) throw new Error("no Next button");
    const pressed = await fake.button({ customId: next, message: first.message }).settled();
    if (pressed.kind !== "message") throw new Error(pressed.kind);
    expect(callbackType(pressed.request)).toBe(7);
    expect(titleOf(pressed.message)).toBe("Trending on bsc, page 2");
  });
});
