/**
 * A fake Discord on loopback for end-to-end tests: REST under `/api/v10/...` and the gateway
 * (HELLO, IDENTIFY → READY, heartbeats, RESUME replaying what the session missed) on the same port. Point discord.js at it with
 * `rest: { api: fake.apiRoot }`. It records every request, checks what Discord refuses
 * (see `discord-limits.ts`) and answers Discord's own error bodies `{ message, code }`.
 *
 * Usage:
 *   const fake = await startFakeDiscord();
 *   const client = new Client({ intents, rest: { api: fake.apiRoot } });
 *   await client.login(fake.token);
 *   const ia = fake.chatInput({ name: "price", options: [{ name: "tokens", type: 3, value: "pepe" }] });
 *   const answer = await ia.settled();      // the message the user ends up seeing
 *   expect(fake.violations).toEqual([]);    // nothing Discord would refuse or we forbid
 */
import { generateKeyPairSync, sign } from "node:crypto";
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { deferred } from "../deferred.js";
import { routeRequest, type RouteState } from "./discord-routes.js";
import { waitBound } from "./wait-bound.js";
import {
  DEFAULT_CHANNEL,
  InteractionKind,
  OptionType,
  guildJson,
  interactionJson,
  messageJson,
  snowflake,
  type FakeMessage,
  type FakeUser,
  type InteractionPlace,
} from "./discord-payloads.js";

export { DEFAULT_CHANNEL, DEFAULT_GUILD, DEFAULT_USER, OptionType, Permission } from "./discord-payloads.js";
export type { FakeMessage, FakeUser, InteractionPlace } from "./discord-payloads.js";

export interface FakeDiscordOptions {
  /** The bot token the fake accepts; any other gets 401. Default "fake-bot-token". */
  token?: string;
  /** Default "900000000000000001"; also the bot user's id. */
  applicationId?: string;
  /** Gateway heartbeat interval sent in HELLO. Default 250 ms (Discord's is ~41 s). */
  heartbeatIntervalMs?: number;
  /** The fake's clock (epoch ms), used for the 3-second first-response window. Default Date.now. */
  now?: () => number;
  /** Close the gateway with this code on IDENTIFY, e.g. 4014 (disallowed intents). Default: accept. */
  refuseIdentify?: { code: number; reason: string };
  /**
   * Posts a channel takes per window, Discord's per-route limit (5 in 5 s): past them a 429, and
   * every post's answer carries the bucket's rate-limit headers. Default: no limit, no headers.
   */
  channelLimit?: { limit: number; windowMs: number };
}

/** An IDENTIFY the gateway received. */
export interface RecordedIdentify {
  /** The gateway intents bit field the client asked for. */
  intents: number;
  /** The `[shard_id, num_shards]` the client identified as; Discord takes none as `[0, 1]`. */
  shard: [number, number];
  /** The fake's clock when it arrived. */
  at: number;
}

/** One REST request as the fake received and answered it. */
export interface RecordedRequest {
  method: string;
  /** After `/api/v10`, percent-decoded: `/webhooks/1/tok/messages/@original`. */
  path: string;
  query: Record<string, string>;
  /** Carried `Authorization: Bot <the right token>`. */
  authorized: boolean;
  /** The JSON body, or `payload_json` of a multipart body; undefined when empty. */
  body: unknown;
  files: { field: string; name: string; type: string; size: number }[];
  /** The fake's clock when it arrived. */
  at: number;
  status: number;
  response: unknown;
}

/** Something Discord would refuse, or that the bot must never do. */
export interface Violation {
  request: string;
  problem: string;
}

/** What a channel answers to the bot; undefined = works. */
export type ChannelFault = "unknown-channel" | "missing-access" | "missing-permissions" | undefined;

export interface RateLimitRule {
  method: string;
  /** Path prefix after `/api/v10` (decoded), e.g. `/channels/123/messages`. */
  pathPrefix: string;
  /** Seconds announced in `retry-after`. */
  retryAfterSeconds: number;
  /** How many requests get the 429. Default 1. */
  times?: number;
}

export interface RefusalRule {
  method: string;
  /** Path prefix after `/api/v10` (decoded), e.g. `/webhooks/APP/TOKEN/messages/@original`. */
  pathPrefix: string;
  /** Default 500. */
  status?: number;
  /** Discord's JSON error code. Default 0. */
  code?: number;
  /** Default "Internal Server Error". */
  message?: string;
  /** How many requests are refused. Default 1. */
  times?: number;
}

/** The end state of an interaction, as the user sees it. */
export type Settled =
  | { kind: "message"; message: FakeMessage; ephemeral: boolean; request: RecordedRequest }
  | { kind: "choices"; choices: { name: string; value: string | number }[]; request: RecordedRequest }
  | { kind: "refused"; request: RecordedRequest };

export interface FakeInteraction {
  id: string;
  token: string;
  /** The fake's clock when it was dispatched. */
  dispatchedAt: number;
  /** Requests that answered this interaction so far (callback and webhook calls). */
  requests(): RecordedRequest[];
  /** The first interaction callback. */
  acknowledged(): Promise<RecordedRequest>;
  /** Resolves once the user sees an answer: a message, edited message, follow-up or choices. */
  settled(): Promise<Settled>;
}

export interface CommandOption {
  name: string;
  type: number;
  value: string | number;
  focused?: boolean;
}

/** A file a member puts in a command's attachment option. */
export interface FakeUpload {
  name: string;
  contentType: string;
  data: Buffer;
}

/** How long a signed CDN link of the fake lives (`ex=`), as Discord's links do: about a day. */
export const CDN_LINK_MS = 24 * 3_600_000;

export interface FakeDiscord {
  /** `http://127.0.0.1:PORT/api`, for `rest.api` / DISCORD_API_ROOT. */
  apiRoot: string;
  token: string;
  applicationId: string;
  botUser: FakeUser;
  /** Every REST request, in arrival order. */
  requests: RecordedRequest[];
  violations: Violation[];
  /** Registered commands: key "global" or the guild id. */
  commands: Map<string, unknown[]>;
  messages: Map<string, FakeMessage>;
  /** Every IDENTIFY, in arrival order. */
  identifies: RecordedIdentify[];
  /** The first IDENTIFY matching `match` (with its index in `identifies`), now or when it arrives (default 5 s). */
  identified(match: (i: RecordedIdentify, index: number) => boolean, opts?: { timeoutMs?: number }): Promise<RecordedIdentify>;
  /** The shards with an open, identified gateway session now, ascending (repeated when two clients run one). */
  liveShards(): number[];
  /** Calls `listener` whenever `liveShards()` may have changed (a session started or resumed, a socket closed); returns the unsubscribe. */
  onSessions(listener: () => void): () => void;
  /** The application's Ed25519 public key, hex, for DISCORD_PUBLIC_KEY. */
  publicKey: string;
  /**
   * Where interactions go: POSTed there signed, as Discord does for an application with an
   * interactions endpoint URL, the HTTP answer taken as the first callback. Undefined (the
   * default) dispatches them over the gateway.
   */
  deliverOverHttp(url: string | undefined): void;
  /** POSTs `payload` to `url` as Discord would, signed with the application's key (or a wrong one). */
  postSigned(url: string, payload: unknown, opts?: { wrongKey?: boolean }): Promise<Response>;
  /** Resolves once `count` gateway sessions were started or resumed in all (default 5 s). */
  sessions(count: number, opts?: { timeoutMs?: number }): Promise<void>;
  /** Resolves when a client has identified and got READY. */
  ready(): Promise<void>;
  /** Sends a gateway dispatch to every identified client. */
  dispatch(event: string, data: unknown): void;
  /** Writes a malformed WebSocket frame to every client: their socket errors and they reconnect. */
  corruptGateway(): void;
  /**
   * A slash command. `files` are uploads in attachment options, by option name: each an
   * ephemeral attachment behind a signed link (`ex=`, `is=`, `hm=`) that the fake's CDN serves
   * until `CDN_LINK_MS` on its clock has passed, then answers 404 as Discord does.
   */
  chatInput(opts: { name: string; options?: CommandOption[]; files?: Record<string, FakeUpload> } & InteractionPlace): FakeInteraction;
  /** Every GET of the fake's CDN: the path, and whether the file was served. */
  cdnReads: { path: string; served: boolean; at: number }[];
  autocomplete(opts: { name: string; options: CommandOption[] } & InteractionPlace): FakeInteraction;
  button(opts: { customId: string; message: FakeMessage } & InteractionPlace): FakeInteraction;
  messageCommand(opts: { name: string; target: { content: string; author?: FakeUser } } & InteractionPlace): FakeInteraction;
  /** The bot joins a server and the gateway tells of it (GUILD_CREATE). */
  guildCreate(opts: { id: string; channelIds?: string[] }): void;
  /** The bot is removed from a server (or it is only unavailable), told by GUILD_DELETE. */
  guildDelete(id: string, opts?: { unavailable?: boolean }): void;
  /** The bot is in a server that no gateway of this test told of: a shard held elsewhere, or a GUILD_CREATE still to come. */
  joinGuildUntold(id: string): void;
  messageCreate(opts: { channelId: string; guildId: string; content: string; author?: FakeUser }): FakeMessage;
  failChannel(channelId: string, fault: ChannelFault): void;
  rateLimit(rule: RateLimitRule): void;
  /** Answers matching requests with an error instead of serving them. */
  refuse(rule: RefusalRule): void;
  /** The first recorded request matching `match`, now or when it arrives (default 5 s). */
  waitFor(match: (r: RecordedRequest) => boolean, opts?: { timeoutMs?: number }): Promise<RecordedRequest>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseBody(type: string, raw: Buffer): Promise<Pick<RecordedRequest, "body" | "files">> {
  if (raw.length === 0) return { body: undefined, files: [] };
  if (type.startsWith("multipart/form-data")) {
    const form = await new Response(raw, { headers: { "content-type": type } }).formData();
    const files: RecordedRequest["files"] = [];
    let body: unknown;
    for (const [field, value] of form.entries()) {
      if (typeof value === "string") {
        if (field === "payload_json") body = JSON.parse(value);
      } else {
        files.push({ field, name: value.name, type: value.type, size: value.size });
      }
    }
    return { body, files };
  }
  return { body: JSON.parse(raw.toString("utf8")), files: [] };
}

type ShardSocket = WebSocket & { identified?: boolean; shard?: [number, number]; sessionId?: string };

/** A gateway session: its shard and every dispatch sent to it, kept for a RESUME to replay as Discord does. */
interface GatewaySession {
  shard: [number, number];
  sent: { s: number; t: string; d: unknown }[];
}

/** Starts the fake on 127.0.0.1, port 0. */
export async function startFakeDiscord(opts: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const token = opts.token ?? "fake-bot-token";
  const applicationId = opts.applicationId ?? "900000000000000001";
  const heartbeatIntervalMs = opts.heartbeatIntervalMs ?? 250;
  const now = opts.now ?? Date.now;
  const botUser: FakeUser = { id: applicationId, username: "chainpulse", bot: true };
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const sockets = new Set<WebSocket>();
  const identifies: RecordedIdentify[] = [];
  const keys = generateKeyPairSync("ed25519");
  const otherKey = generateKeyPairSync("ed25519").privateKey;
  // The raw key is the last 32 bytes of its SubjectPublicKeyInfo.
  const publicKey = keys.publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex");
  let httpUrl: string | undefined;
  /** `http://127.0.0.1:PORT`, once listening. */
  let httpRoot = "";
  let sessionCount = 0;
  let sequence = 0;
  const firstReady = deferred();

  const state: RouteState = {
    token,
    applicationId,
    botUser,
    now,
    gatewayUrl: "",
    requests: [],
    violations: [],
    commands: new Map(),
    messages: new Map(),
    interactions: new Map(),
    channelFaults: new Map(),
    guilds: new Set(),
    rateLimits: [],
    refusals: [],
    ...(opts.channelLimit ? { channelLimit: opts.channelLimit } : {}),
    channelWindows: new Map(),
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: `fake error: ${String(err)}`, code: 0 }));
    });
  });

  /** The fake's CDN: uploads by path, with the expiry their link was signed for. */
  const cdn = new Map<string, { upload: FakeUpload; expires: number; hm: string }>();
  const cdnReads: FakeDiscord["cdnReads"] = [];

  function serveCdn(url: URL, res: ServerResponse): void {
    const file = cdn.get(url.pathname);
    const ex = parseInt(url.searchParams.get("ex") ?? "", 16) * 1000;
    const served = file !== undefined && url.searchParams.get("hm") === file.hm && ex === file.expires && now() < file.expires;
    cdnReads.push({ path: url.pathname, served, at: now() });
    if (!served) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("This content is no longer available.");
      return;
    }
    res.writeHead(200, { "content-type": file.upload.contentType, "content-length": String(file.upload.data.length) });
    res.end(file.upload.data);
  }

  /** An upload as an ephemeral attachment of an interaction's `resolved` data, its link signed for a day. */
  function ephemeralAttachment(upload: FakeUpload): Record<string, unknown> {
    const id = snowflake();
    const path = `/ephemeral-attachments/${applicationId}/${id}/${encodeURIComponent(upload.name)}`;
    const issued = Math.floor(now() / 1000);
    const expires = issued + CDN_LINK_MS / 1000;
    const hm = snowflake();
    cdn.set(path, { upload, expires: expires * 1000, hm });
    const query = `?ex=${expires.toString(16)}&is=${issued.toString(16)}&hm=${hm}&`;
    return {
      id, filename: upload.name, size: upload.data.length, content_type: upload.contentType, ephemeral: true,
      url: `${httpRoot}${path}${query}`, proxy_url: `${httpRoot}${path}${query}`,
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname.startsWith("/ephemeral-attachments/")) return serveCdn(url, res);
    const raw = await readBody(req);
    const parsed = await parseBody(req.headers["content-type"] ?? "", raw);
    const record: RecordedRequest = {
      method: req.method ?? "GET",
      path: decodeURIComponent(url.pathname.replace(/^\/api\/v10/, "")),
      query: Object.fromEntries(url.searchParams),
      authorized: req.headers.authorization === `Bot ${token}`,
      body: parsed.body,
      files: parsed.files,
      at: now(),
      status: 0,
      response: undefined,
    };
    const answer = url.pathname.startsWith("/api/v10/")
      ? routeRequest(state, record)
      : { status: 404, body: { message: "404: Not Found", code: 0 } };
    record.status = answer.status;
    record.response = answer.body;
    state.requests.push(record);
    if (answer.body === undefined) {
      // discord.js parses any JSON content-type, and an empty 204 with one crashes it.
      res.writeHead(answer.status, answer.headers ?? {});
      res.end();
    } else {
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(JSON.stringify(answer.body));
    }
    events.emit("request", record);
  }

  const wss = new WebSocketServer({ server });
  wss.on("connection", (ws) => {
    sockets.add(ws);
    ws.on("close", () => {
      sockets.delete(ws);
      events.emit("sessions");
    });
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: heartbeatIntervalMs }, s: null, t: null }));
    ws.on("message", (data) => {
      const packet = JSON.parse(String(data)) as { op: number; d: unknown };
      if (packet.op === 1) ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      if (packet.op === 2) identify(ws, packet.d as { token?: string; intents?: number; shard?: [number, number] });
      if (packet.op === 6) resume(ws, packet.d as { token?: string; session_id?: string });
    });
  });

  /** Each session by id: a RESUME names only the session, and the session is the shard's. */
  const gatewaySessions = new Map<string, GatewaySession>();

  function identify(ws: WebSocket, d: { token?: string; intents?: number; shard?: [number, number] }): void {
    const shard = d.shard ?? [0, 1];
    identifies.push({ intents: d.intents ?? 0, shard, at: now() });
    events.emit("identify");
    (ws as ShardSocket).shard = shard;
    if (d.token !== token) {
      ws.close(4004, "Authentication failed.");
      return;
    }
    if (opts.refuseIdentify !== undefined) {
      ws.close(opts.refuseIdentify.code, opts.refuseIdentify.reason);
      return;
    }
    (ws as WebSocket & { identified?: boolean }).identified = true;
    sequence += 1;
    const sessionId = snowflake();
    gatewaySessions.set(sessionId, { shard, sent: [] });
    (ws as ShardSocket).sessionId = sessionId;
    const user = { id: botUser.id, username: botUser.username, discriminator: "0", avatar: null, bot: true };
    const ready = {
      v: 10,
      user,
      guilds: [],
      session_id: sessionId,
      resume_gateway_url: state.gatewayUrl,
      application: { id: applicationId, flags: 0 },
    };
    ws.send(JSON.stringify({ op: 0, t: "READY", s: sequence, d: ready }));
    firstReady.resolve();
    sessionStarted();
  }

  /**
   * A RESUME gets what the session was sent after the client's last sequence, then RESUMED, as
   * Discord replays: discord.js resumes when a heartbeat goes unacknowledged (the fake's come every
   * 250 ms, so a loaded machine's stall is enough), and an interaction dispatched meanwhile must
   * still arrive.
   */
  function resume(ws: WebSocket, d: { token?: string; session_id?: string; seq?: number | null }): void {
    if (d.token !== token) {
      ws.close(4004, "Authentication failed.");
      return;
    }
    const session = d.session_id === undefined ? undefined : gatewaySessions.get(d.session_id);
    if (session !== undefined) {
      (ws as ShardSocket).shard = session.shard;
      (ws as ShardSocket).sessionId = d.session_id;
      for (const p of session.sent) if (p.s > (d.seq ?? 0)) ws.send(JSON.stringify({ op: 0, ...p }));
    }
    (ws as WebSocket & { identified?: boolean }).identified = true;
    sequence += 1;
    ws.send(JSON.stringify({ op: 0, t: "RESUMED", s: sequence, d: {} }));
    sessionStarted();
  }

  function sessionStarted(): void {
    sessionCount += 1;
    events.emit("session");
    events.emit("sessions");
  }

  function sessions(count: number, o: { timeoutMs?: number } = {}): Promise<void> {
    if (sessionCount >= count) return Promise.resolve();
    const bound = waitBound(o.timeoutMs);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        events.off("session", listener);
        reject(new Error(`fake Discord: ${sessionCount} gateway sessions, not ${count}, within ${bound} ms`));
      }, bound);
      const listener = (): void => {
        if (sessionCount < count) return;
        clearTimeout(timer);
        events.off("session", listener);
        resolve();
      };
      events.on("session", listener);
    });
  }

  /** A server's events go to the sessions of its shard; a direct message's to shard 0 (Discord's rule). */
  function receives(shard: [number, number], event: string, data: unknown): boolean {
    const [id, count] = shard;
    const d = data as { guild_id?: unknown; id?: unknown };
    const guildId = typeof d.guild_id === "string" ? d.guild_id : event.startsWith("GUILD_") && typeof d.id === "string" ? d.id : undefined;
    return (guildId === undefined ? 0 : Number((BigInt(guildId) >> 22n) % BigInt(count))) === id;
  }

  /** Sends to each session of the event's shard on its open socket; a session between sockets has it on its RESUME. */
  function dispatch(event: string, data: unknown): void {
    const open = new Map([...sockets].map((ws) => ws as ShardSocket).filter((ws) => ws.identified === true && ws.readyState === ws.OPEN).map((ws) => [ws.sessionId, ws]));
    for (const [sessionId, session] of gatewaySessions) {
      if (!receives(session.shard, event, data)) continue;
      sequence += 1;
      const packet = { s: sequence, t: event, d: data };
      session.sent.push(packet);
      open.get(sessionId)?.send(JSON.stringify({ op: 0, ...packet }));
    }
  }

  function identified(match: (i: RecordedIdentify, index: number) => boolean, o: { timeoutMs?: number } = {}): Promise<RecordedIdentify> {
    const found = identifies.find(match);
    if (found) return Promise.resolve(found);
    const bound = waitBound(o.timeoutMs);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        events.off("identify", listener);
        reject(new Error(`fake Discord: no matching IDENTIFY within ${bound} ms; seen: ${JSON.stringify(identifies.map((i) => i.shard))}`));
      }, bound);
      const listener = (): void => {
        const index = identifies.length - 1;
        const last = identifies[index];
        if (last === undefined || !match(last, index)) return;
        clearTimeout(timer);
        events.off("identify", listener);
        resolve(last);
      };
      events.on("identify", listener);
    });
  }

  function postSigned(url: string, payload: unknown, o: { wrongKey?: boolean } = {}): Promise<Response> {
    const body = JSON.stringify(payload);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(timestamp + body), o.wrongKey === true ? otherKey : keys.privateKey).toString("hex");
    return fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature-ed25519": signature, "x-signature-timestamp": timestamp },
      body,
    });
  }

  /** Delivers over HTTP and records the answer as the interaction's callback, as Discord treats it. */
  async function deliverHttp(url: string, payload: { id: string; token: string }): Promise<void> {
    const path = `/interactions/${payload.id}/${payload.token}/callback`;
    let record: RecordedRequest;
    try {
      const res = await postSigned(url, payload);
      const raw = Buffer.from(await res.arrayBuffer());
      const type = res.headers.get("content-type") ?? "";
      const parsed = res.ok ? await parseBody(type, raw) : { body: raw.toString("utf8"), files: [] };
      record = { method: "POST", path, query: {}, authorized: false, ...parsed, at: now(), status: 0, response: undefined };
      // Discord fails an interaction whose HTTP answer is multipart: files go through the webhook.
      const multipart = res.ok && type.startsWith("multipart/");
      if (multipart) state.violations.push({ request: `POST ${path}`, problem: "files in the HTTP answer of an interaction" });
      const answer = multipart
        ? { status: 400, body: { message: "files in an HTTP interaction answer", code: 0 } }
        : res.ok
          ? routeRequest(state, record)
          : { status: res.status, body: parsed.body };
      record.status = answer.status;
      record.response = answer.body;
    } catch (err) {
      record = { method: "POST", path, query: {}, authorized: false, body: undefined, files: [], at: now(), status: 599, response: String(err) };
    }
    state.requests.push(record);
    events.emit("request", record);
  }

  function waitFor(match: (r: RecordedRequest) => boolean, o: { timeoutMs?: number } = {}): Promise<RecordedRequest> {
    const found = state.requests.find(match);
    if (found) return Promise.resolve(found);
    const bound = waitBound(o.timeoutMs);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        events.off("request", listener);
        const seen = state.requests.map((r) => `${r.method} ${r.path} → ${r.status}`).join("\n  ");
        reject(new Error(`fake Discord: no matching request within ${bound} ms; seen:\n  ${seen}`));
      }, bound);
      const listener = (r: RecordedRequest): void => {
        if (!match(r)) return;
        clearTimeout(timer);
        events.off("request", listener);
        resolve(r);
      };
      events.on("request", listener);
    });
  }

  function interact(type: number, data: Record<string, unknown>, place: InteractionPlace, message?: FakeMessage): FakeInteraction {
    const payload = interactionJson({ applicationId, type, data, place, ...(message ? { message } : {}) });
    const dispatchedAt = now();
    state.interactions.set(payload.id, {
      id: payload.id,
      token: payload.token,
      type,
      dispatchedAt,
      channelId: place.channelId ?? DEFAULT_CHANNEL,
      ...(message ? { messageId: message.id } : {}),
    });
    if (httpUrl === undefined) dispatch("INTERACTION_CREATE", payload);
    else void deliverHttp(httpUrl, payload);
    const mine = (r: RecordedRequest): boolean =>
      r.path.startsWith(`/interactions/${payload.id}/`) || r.path.startsWith(`/webhooks/${applicationId}/${payload.token}`);
    return {
      id: payload.id,
      token: payload.token,
      dispatchedAt,
      requests: () => state.requests.filter(mine),
      acknowledged: () => waitFor((r) => mine(r) && r.path.endsWith("/callback")),
      settled: () => settle(payload.id, payload.token, mine),
    };
  }

  async function settle(id: string, itoken: string, mine: (r: RecordedRequest) => boolean): Promise<Settled> {
    const first = await waitFor((r) => mine(r) && r.path.endsWith("/callback"));
    const callbackType = (first.body as { type?: number } | undefined)?.type;
    if (first.status >= 400) return { kind: "refused", request: first };
    if (callbackType === 8) {
      const data = (first.body as { data: { choices: { name: string; value: string | number }[] } }).data;
      return { kind: "choices", choices: data.choices, request: first };
    }
    const final =
      callbackType === 4 || callbackType === 7
        ? first
        : await waitFor(
            (r) =>
              mine(r) &&
              ((r.method === "PATCH" && r.path.endsWith("/messages/@original")) ||
                (r.method === "POST" && r.path === `/webhooks/${applicationId}/${itoken}`)),
          );
    if (final.status >= 400) return { kind: "refused", request: final };
    const messageId = final === first ? state.interactions.get(id)?.messageId : (final.response as FakeMessage).id;
    const message = messageId === undefined ? undefined : state.messages.get(messageId);
    if (message === undefined) return { kind: "refused", request: final };
    return { kind: "message", message, ephemeral: (message.flags & 64) !== 0, request: final };
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  httpRoot = `http://127.0.0.1:${port}`;
  state.gatewayUrl = `ws://127.0.0.1:${port}`;

  return {
    apiRoot: `http://127.0.0.1:${port}/api`,
    token,
    applicationId,
    botUser,
    requests: state.requests,
    violations: state.violations,
    commands: state.commands,
    messages: state.messages,
    identifies,
    identified,
    liveShards: () =>
      [...sockets]
        .map((ws) => ws as ShardSocket)
        .filter((ws) => ws.identified === true && ws.readyState === ws.OPEN)
        .map((ws) => (ws.shard ?? [0, 1])[0])
        .sort((a, b) => a - b),
    onSessions: (listener) => {
      events.on("sessions", listener);
      return () => events.off("sessions", listener);
    },
    publicKey,
    deliverOverHttp: (url) => {
      httpUrl = url;
    },
    postSigned,
    sessions,
    ready: () => firstReady.promise,
    dispatch,
    corruptGateway: () => {
      // FIN with the reserved opcode 3: no WebSocket client may accept it.
      for (const ws of sockets) (ws as unknown as { _socket: { write(b: Buffer): void } })._socket.write(Buffer.from([0x83, 0x00]));
    },
    chatInput: ({ name, options, files, ...place }) => {
      const uploads = Object.entries(files ?? {}).map(([option, upload]) => ({ option, attachment: ephemeralAttachment(upload) }));
      const data = {
        id: snowflake(), name, type: 1,
        options: [...(options ?? []), ...uploads.map((u) => ({ name: u.option, type: OptionType.attachment, value: u.attachment.id }))],
        ...(uploads.length === 0 ? {} : { resolved: { attachments: Object.fromEntries(uploads.map((u) => [u.attachment.id, u.attachment])) } }),
      };
      return interact(InteractionKind.command, data, place);
    },
    cdnReads,
    autocomplete: ({ name, options, ...place }) =>
      interact(InteractionKind.autocomplete, { id: snowflake(), name, type: 1, options }, place),
    button: ({ customId, message, ...place }) =>
      interact(InteractionKind.component, { custom_id: customId, component_type: 2 }, place, message),
    messageCommand: ({ name, target, ...place }) => {
      const msg = messageJson({
        channelId: place.channelId ?? DEFAULT_CHANNEL,
        author: target.author ?? { id: "600000000000000002", username: "poster" },
        content: target.content,
      });
      const data = { id: snowflake(), name, type: 3, target_id: msg.id, resolved: { messages: { [msg.id]: msg } } };
      return interact(InteractionKind.command, data, place);
    },
    guildCreate: ({ id, channelIds }) => {
      state.guilds.add(id);
      dispatch("GUILD_CREATE", guildJson({ id, botUser, ...(channelIds ? { channelIds } : {}) }));
    },
    guildDelete: (id, o = {}) => {
      if (o.unavailable !== true) state.guilds.delete(id);
      dispatch("GUILD_DELETE", o.unavailable ? { id, unavailable: true } : { id });
    },
    joinGuildUntold: (id) => {
      state.guilds.add(id);
    },
    messageCreate: ({ channelId, guildId, content, author }) => {
      const msg = messageJson({ channelId, guildId, content, author: author ?? { id: "600000000000000002", username: "poster" } });
      dispatch("MESSAGE_CREATE", { ...msg, member: { roles: [], joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0 } });
      return msg;
    },
    failChannel: (channelId, fault) => {
      if (fault === undefined) state.channelFaults.delete(channelId);
      else state.channelFaults.set(channelId, fault);
    },
    rateLimit: (rule) => state.rateLimits.push({ ...rule, remaining: rule.times ?? 1 }),
    refuse: (rule) =>
      state.refusals.push({
        method: rule.method,
        pathPrefix: rule.pathPrefix,
        status: rule.status ?? 500,
        code: rule.code ?? 0,
        message: rule.message ?? "Internal Server Error",
        remaining: rule.times ?? 1,
      }),
    waitFor,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
