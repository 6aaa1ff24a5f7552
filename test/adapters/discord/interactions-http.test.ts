/**
 * Interactions over HTTP: the fake Discord POSTs each interaction, signed with the
 * application's Ed25519 key, to the adapter's interactions route on the real ops server, and
 * takes the HTTP answer as its first response, as Discord does for an application with an
 * interactions endpoint URL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { createDiscordAdapter, type DiscordAdapter } from "../../../src/adapters/discord/index.js";
import type { ChartRenderer } from "../../../src/chart/types.js";
import { createMetrics } from "../../../src/ops/metrics.js";
import { startOpsServer, type OpsServer } from "../../../src/ops/http-server.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/store.js";
import { OptionType, startFakeDiscord, type FakeDiscord, type FakeMessage, type RecordedRequest } from "../../fakes/discord-api.js";
import { startRealCore, type RealCore } from "../real-core.js";
import { PNG } from "./harness.js";
import { deferred } from "../../deferred.js";

const pngCharts: ChartRenderer = { render: async () => PNG, close: async () => undefined };

function callbackType(r: RecordedRequest): number | undefined {
  return (r.body as { type?: number } | undefined)?.type;
}

/** The embed title as Discord shows it, Markdown escapes undone. */
function titleOf(message: FakeMessage): string {
  return ((message.embeds[0] as { title?: string } | undefined)?.title ?? "").replace(/\\(.)/g, "$1");
}

function price(fake: FakeDiscord, tokens: string) {
  return fake.chatInput({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: tokens }] });
}

describe("Discord interactions over HTTP on the ops port", () => {
  let fake: FakeDiscord;
  let store: SqliteStore;
  let real: RealCore;
  /** Every market answer waits for this while the sandbox's latency fault is set. */
  let gate = deferred();
  let adapter: DiscordAdapter;
  let ops: OpsServer;
  let url: string;

  beforeAll(async () => {
    store = await openSqliteStore({ path: ":memory:" });
    real = await startRealCore({ store, charts: pngCharts, sandbox: { delay: () => gate.promise } });
    fake = await startFakeDiscord();
    const logger = pino({ level: "silent" });
    adapter = createDiscordAdapter({
      token: fake.token,
      applicationId: fake.applicationId,
      apiRoot: fake.apiRoot,
      core: real.core,
      logger,
      ackWithinMs: 1000,
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
    // PEPE's price in the cache (the core's clock stands still), so asking it again needs no market.
    await price(fake, "pepe").settled();
  });
  afterAll(async () => {
    await adapter.stop();
    await ops.close();
    await fake.close();
    gate.resolve();
    await real.close();
    await store.close();
  });
  afterEach(() => {
    gate.resolve();
    real.sandbox.clearFaults();
    expect(fake.violations).toEqual([]);
  });

  it("serves the interactions route at /discord/interactions", () => {
    expect(new URL(url).pathname).toBe("/discord/interactions");
  });

  it("answers a signed slash command in the HTTP answer itself", async () => {
    const ia = price(fake, "pepe");
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(callbackType(answer.request)).toBe(4);
    expect(titleOf(answer.message)).toMatch(/^PEPE \$/);
    // The answer went back over HTTP only, never also to Discord's callback endpoint.
    expect(ia.requests().filter((r) => r.path.endsWith("/callback"))).toEqual([answer.request]);
  });

  it("answers PING with PONG", async () => {
    const res = await fake.postSigned(url, { id: "123456789012345678", application_id: fake.applicationId, type: 1, token: "ping-token", version: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 1 });
  });

  it("answers 400 to a signed payload that is no interaction the bot handles, and stays up", async () => {
    const user = { id: "423456789012345678", username: "u", discriminator: "0", global_name: null, avatar: null };
    const base = { id: "323456789012345678", application_id: fake.applicationId, token: "t", version: 1, user, entitlements: [] };
    const price = { id: "523456789012345678", name: "price", type: 1, options: [{ name: "tokens", type: 3, value: "pepe" }] };
    const { user: _nobody, ...anonymous } = base;
    const { entitlements: _none, ...unentitled } = base;
    for (const payload of [
      null, [], { ...base, type: 2 }, { ...base, type: 3, data: { custom_id: "cp:x", component_type: 2 } }, { ...base, type: 99, data: {} }, { ...base, type: 2, data: "price" },
      { ...anonymous, type: 2, data: price }, { ...unentitled, type: 2, data: price }, { ...base, type: 2, data: {} }, { ...base, type: 4, data: { name: "price" } },
    ]) {
      expect((await fake.postSigned(url, payload)).status, JSON.stringify(payload)).toBe(400);
    }
    const ping = await fake.postSigned(url, { ...base, type: 1 });
    expect(ping.status).toBe(200);
  });

  it("refuses a badly signed interaction with 401 and runs nothing", async () => {
    real.sandbox.resetStats();
    // WIF is not in the cache: running the command would ask the market.
    const payload = { id: "223456789012345678", application_id: fake.applicationId, type: 2, token: "t", data: { name: "price", type: 1, options: [{ name: "tokens", type: 3, value: "wif" }] } };
    const res = await fake.postSigned(url, payload, { wrongKey: true });
    expect(res.status).toBe(401);
    const unsigned = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
    expect(unsigned.status).toBe(401);
    expect(real.sandbox.stats().total).toBe(0);
    expect(fake.requests.filter((r) => r.path.includes("/t/"))).toEqual([]);
  });

  it("defers a command on a slow market in the HTTP answer within Discord's 3 s, then edits the answer in through REST", async () => {
    gate = deferred();
    real.sandbox.setFaults([{ kind: "latency", ms: 1 }]);
    const ia = fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: "bonk" }] });
    const ack = await ia.acknowledged();
    expect(ack.status).toBe(204);
    expect(callbackType(ack)).toBe(5);
    gate.resolve();
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.request.method).toBe("PATCH");
    expect(answer.request.path).toMatch(/\/messages\/@original$/);
    expect(titleOf(answer.message)).toMatch(/BONK/);
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
    // Suggestions come from the tokens the core has seen: PEPE, asked for before.
    expect(suggested.choices[0]?.name).toMatch(/^PEPE · /);
    expect(suggested.choices[0]?.value).toMatch(/-[a-z]+$/);

    const first = await fake.chatInput({ name: "trending", options: [{ name: "chain", type: OptionType.string, value: "bsc" }] }).settled();
    if (first.kind !== "message") throw new Error(first.kind);
    const next = (first.message.components as { components: { custom_id?: string; label: string }[] }[])
      .flatMap((r) => r.components)
      .find((b) => b.label === "Next ▶")?.custom_id;
    if (next === undefined) throw new Error("no Next button");
    const press = fake.button({ customId: next, message: first.message });
    const pressed = await press.settled();
    if (pressed.kind !== "message") throw new Error(pressed.kind);
    // Updated in place: in the HTTP answer itself (7), or, when the market was slow, deferred there (6) and edited in.
    const ack = await press.acknowledged();
    expect(callbackType(ack)).toBe(pressed.request === ack ? 7 : 6);
    expect(pressed.message.id).toBe(first.message.id);
    expect(titleOf(pressed.message)).toMatch(/^Trending on bsc · page 2 of \d+$/);
  });
});
