import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startFakeDiscord, type FakeDiscord } from "../../fakes/discord-api.js";

interface Packet {
  op: number;
  s?: number | null;
  t?: string | null;
  d?: { session_id?: string; resume_gateway_url?: string };
}

/** A gateway connection that opens with `first` once the fake says hello, and its first dispatch. */
async function gatewaySession(url: string, first: unknown): Promise<{ ws: WebSocket; dispatch: Packet }> {
  const ws = new WebSocket(url);
  const dispatch = await new Promise<Packet>((resolve, reject) => {
    ws.on("error", reject);
    ws.on("message", (data) => {
      const packet = JSON.parse(String(data)) as Packet;
      if (packet.op === 10) ws.send(JSON.stringify(first));
      if (packet.op === 0) resolve(packet);
    });
  });
  return { ws, dispatch };
}

async function closed(ws: WebSocket): Promise<void> {
  await new Promise<void>((resolve) => {
    ws.once("close", () => resolve());
    ws.close();
  });
}

/**
 * The fake refuses what Discord refuses: tests that rely on an empty `violations` list are
 * only as good as these checks.
 */
describe("the fake Discord", () => {
  let fake: FakeDiscord;
  const NO_MENTIONS = { parse: [] };

  beforeAll(async () => {
    fake = await startFakeDiscord();
  });
  afterAll(() => fake.close());

  async function post(path: string, body: unknown, auth = true) {
    const res = await fetch(`${fake.apiRoot}/v10${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(auth ? { authorization: `Bot ${fake.token}` } : {}) },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get("content-type"), body: text === "" ? undefined : (JSON.parse(text) as unknown) };
  }

  function lastProblems(count: number): string[] {
    return fake.violations.slice(-count).map((v) => v.problem);
  }

  it("refuses embeds over a field limit or over 6,000 characters together, as Invalid Form Body", async () => {
    const embeds = [{ title: "t".repeat(257) }, { description: "d".repeat(4000) }, { description: "d".repeat(2000) }];
    const res = await post("/channels/1/messages", { embeds, allowed_mentions: NO_MENTIONS });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: "Invalid Form Body", code: 50035 });
    expect(lastProblems(2)).toEqual([
      "embeds[0].title has 257 characters, more than 256",
      "the embeds hold 6257 characters together, more than 6000",
    ]);
  });

  it("refuses more than 5 buttons in a row and custom ids over 100 characters", async () => {
    const buttons = Array.from({ length: 6 }, (_, i) => ({ type: 2, style: 1, label: `b${i}`, custom_id: i === 0 ? "x".repeat(101) : `b${i}` }));
    const res = await post("/channels/1/messages", { content: "hi", components: [{ type: 1, components: buttons }], allowed_mentions: NO_MENTIONS });
    expect(res.status).toBe(400);
    expect(lastProblems(2)).toEqual([
      "components[0] has 6 buttons, more than 5",
      "components[0].components[0].custom_id must be 1–100 characters",
    ]);
  });

  it("records a message sent without allowed_mentions, though Discord would post it", async () => {
    const res = await post("/channels/1/messages", { content: "@everyone" });
    expect(res.status).toBe(200);
    expect(lastProblems(1)).toEqual(["the message has no allowed_mentions"]);
  });

  it("answers an interaction callback with 204 and no content type, and refuses a second answer", async () => {
    const ia = fake.chatInput({ name: "price" });
    const first = await post(`/interactions/${ia.id}/${ia.token}/callback`, { type: 4, data: { content: "ok", allowed_mentions: NO_MENTIONS } }, false);
    expect(first).toEqual({ status: 204, type: null, body: undefined });
    const second = await post(`/interactions/${ia.id}/${ia.token}/callback`, { type: 4, data: { content: "again", allowed_mentions: NO_MENTIONS } }, false);
    expect(second.body).toEqual({ message: "Interaction has already been acknowledged.", code: 40060 });
  });

  it("refuses more than 25 autocomplete choices", async () => {
    const ia = fake.autocomplete({ name: "token", options: [{ name: "token", type: 3, value: "p", focused: true }] });
    const choices = Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `c${i}` }));
    const res = await post(`/interactions/${ia.id}/${ia.token}/callback`, { type: 8, data: { choices } }, false);
    expect(res.status).toBe(400);
    expect(lastProblems(1)).toEqual(["26 choices, more than 25"]);
  });

  it("answers the errors of removed channels and a 429 with Discord's headers", async () => {
    fake.failChannel("77", "missing-access");
    expect((await post("/channels/77/messages", { content: "x", allowed_mentions: NO_MENTIONS })).body).toEqual({ message: "Missing Access", code: 50001 });
    fake.failChannel("77", undefined);
    fake.rateLimit({ method: "POST", pathPrefix: "/channels/78/", retryAfterSeconds: 2 });
    const res = await fetch(`${fake.apiRoot}/v10/channels/78/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bot ${fake.token}` },
      body: JSON.stringify({ content: "x", allowed_mentions: NO_MENTIONS }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("keeps a resumed session on the shard it was identified for", async () => {
    const res = await fetch(`${fake.apiRoot}/v10/gateway/bot`, { headers: { authorization: `Bot ${fake.token}` } });
    const { url } = (await res.json()) as { url: string };
    const started = await gatewaySession(url, { op: 2, d: { token: fake.token, intents: 0, shard: [1, 4], properties: {} } });
    expect(started.dispatch.t).toBe("READY");
    expect(fake.liveShards()).toEqual([1]);
    await closed(started.ws);
    const resumed = await gatewaySession(started.dispatch.d?.resume_gateway_url ?? url, { op: 6, d: { token: fake.token, session_id: started.dispatch.d?.session_id, seq: 1 } });
    expect(resumed.dispatch.t).toBe("RESUMED");
    expect(fake.liveShards()).toEqual([1]);
    await closed(resumed.ws);
  });

  it("replays on a RESUME what the session was sent after the client's sequence", async () => {
    const res = await fetch(`${fake.apiRoot}/v10/gateway/bot`, { headers: { authorization: `Bot ${fake.token}` } });
    const { url } = (await res.json()) as { url: string };
    const started = await gatewaySession(url, { op: 2, d: { token: fake.token, intents: 0, shard: [0, 1], properties: {} } });
    await closed(started.ws);
    // Dispatched while the session has no socket, as when discord.js resumes after a heartbeat went unanswered.
    const ia = fake.chatInput({ name: "price", options: [] });
    const resumed = await gatewaySession(started.dispatch.d?.resume_gateway_url ?? url, {
      op: 6, d: { token: fake.token, session_id: started.dispatch.d?.session_id, seq: started.dispatch.s },
    });
    expect(resumed.dispatch.t).toBe("INTERACTION_CREATE");
    expect((resumed.dispatch.d as { id?: string }).id).toBe(ia.id);
    await closed(resumed.ws);
  });

  it("refuses REST calls without the bot token", async () => {
    expect((await post("/channels/1/messages", { content: "x" }, false)).status).toBe(401);
  });
});
