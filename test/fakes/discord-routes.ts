/**
 * The fake Discord's REST routes: what each answers, what it checks and which error body it
 * answers, as Discord does. Used by `discord-api.ts`; state lives there.
 */
import type { RecordedRequest, Violation } from "./discord-api.js";
import { checkAllowedMentions, checkApplicationCommand, checkAutocomplete, checkMessageBody } from "./discord-limits.js";
import { messageJson, snowflake, type FakeMessage, type FakeUser } from "./discord-payloads.js";

/** Interactions answer within this window on the fake's clock, or Discord forgets them. */
export const FIRST_RESPONSE_MS = 3000;

export interface InteractionState {
  id: string;
  token: string;
  type: number;
  dispatchedAt: number;
  channelId: string;
  /** The original response, or the message a component sits on. */
  messageId?: string;
  acknowledged?: number;
}

export interface RouteState {
  token: string;
  applicationId: string;
  botUser: FakeUser;
  now: () => number;
  gatewayUrl: string;
  requests: RecordedRequest[];
  violations: Violation[];
  commands: Map<string, unknown[]>;
  messages: Map<string, FakeMessage>;
  interactions: Map<string, InteractionState>;
  channelFaults: Map<string, "unknown-channel" | "missing-access" | "missing-permissions">;
  /** The servers the bot is in, as Discord's REST knows them (a gateway may not have told of them yet). */
  guilds: Set<string>;
  rateLimits: { method: string; pathPrefix: string; retryAfterSeconds: number; remaining: number }[];
  refusals: { method: string; pathPrefix: string; status: number; code: number; message: string; remaining: number }[];
  /** Posts a channel takes in a window, as Discord counts them; undefined = no limit. */
  channelLimit?: { limit: number; windowMs: number };
  /** Per channel, its current window: when it ends and how many posts it took. */
  channelWindows: Map<string, { endsAt: number; used: number }>;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const NOT_FOUND: Answer = { status: 404, body: { message: "404: Not Found", code: 0 } };
const UNAUTHORIZED: Answer = { status: 401, body: { message: "401: Unauthorized", code: 0 } };
const UNKNOWN_INTERACTION: Answer = { status: 404, body: { message: "Unknown interaction", code: 10062 } };
const UNKNOWN_WEBHOOK: Answer = { status: 404, body: { message: "Unknown Webhook", code: 10015 } };

const CHANNEL_FAULTS: Record<string, Answer> = {
  "unknown-channel": { status: 404, body: { message: "Unknown Channel", code: 10003 } },
  "missing-access": { status: 403, body: { message: "Missing Access", code: 50001 } },
  "missing-permissions": { status: 403, body: { message: "Missing Permissions", code: 50013 } },
};

function invalidForm(problems: string[]): Answer {
  return { status: 400, body: { message: "Invalid Form Body", code: 50035, errors: { _problems: problems } } };
}

function violate(state: RouteState, r: RecordedRequest, problems: string[]): void {
  for (const problem of problems) state.violations.push({ request: `${r.method} ${r.path}`, problem });
}

/** Refuses what Discord refuses (400) and records a violation for each problem, allowed_mentions included. */
function checkMessage(state: RouteState, r: RecordedRequest, body: unknown): Answer | undefined {
  const refused = checkMessageBody(body, r.files.map((f) => f.name));
  violate(state, r, [...refused, ...checkAllowedMentions(body)]);
  return refused.length > 0 ? invalidForm(refused) : undefined;
}

function attachmentsOf(r: RecordedRequest): Record<string, unknown>[] {
  return r.files.map((f) => ({
    id: snowflake(),
    filename: f.name,
    size: f.size,
    content_type: f.type,
    url: `https://cdn.discordapp.test/attachments/${f.name}`,
    proxy_url: `https://media.discordapp.test/attachments/${f.name}`,
  }));
}

function store(state: RouteState, message: FakeMessage): FakeMessage {
  state.messages.set(message.id, message);
  return message;
}

function newMessage(state: RouteState, r: RecordedRequest, channelId: string, body: Record<string, unknown>): FakeMessage {
  return store(
    state,
    messageJson({
      channelId,
      author: state.botUser,
      content: typeof body.content === "string" ? body.content : "",
      embeds: Array.isArray(body.embeds) ? body.embeds : [],
      components: Array.isArray(body.components) ? body.components : [],
      attachments: attachmentsOf(r),
      flags: typeof body.flags === "number" ? body.flags : 0,
    }),
  );
}

function editMessage(state: RouteState, r: RecordedRequest, message: FakeMessage, body: Record<string, unknown>): FakeMessage {
  const flags = message.flags & ~128;
  return store(state, {
    ...message,
    flags,
    edited_timestamp: new Date().toISOString(),
    ...(typeof body.content === "string" ? { content: body.content } : {}),
    ...(Array.isArray(body.embeds) ? { embeds: body.embeds } : {}),
    ...(Array.isArray(body.components) ? { components: body.components } : {}),
    ...(r.files.length > 0 || Array.isArray(body.attachments) ? { attachments: attachmentsOf(r) } : {}),
  });
}

function callback(state: RouteState, r: RecordedRequest, id: string, itoken: string): Answer {
  const ia = state.interactions.get(id);
  if (ia === undefined || ia.token !== itoken) return UNKNOWN_INTERACTION;
  const elapsed = r.at - ia.dispatchedAt;
  if (ia.acknowledged === undefined && elapsed > FIRST_RESPONSE_MS) {
    violate(state, r, [`interaction first answered after ${elapsed} ms, more than ${FIRST_RESPONSE_MS}`]);
    return UNKNOWN_INTERACTION;
  }
  if (ia.acknowledged !== undefined) {
    violate(state, r, ["interaction answered twice"]);
    return { status: 400, body: { message: "Interaction has already been acknowledged.", code: 40060 } };
  }
  const body = (r.body ?? {}) as { type?: number; data?: Record<string, unknown> };
  const data = body.data ?? {};
  const allowed: Record<number, number[]> = { 2: [4, 5, 9], 3: [4, 5, 6, 7, 9], 4: [8] };
  if (body.type === undefined || !(allowed[ia.type] ?? []).includes(body.type)) {
    violate(state, r, [`response type ${String(body.type)} is not valid for interaction type ${ia.type}`]);
    return { status: 400, body: { message: "Interaction response type invalid", code: 50035 } };
  }
  if (body.type === 8) {
    const problems = checkAutocomplete(data);
    violate(state, r, problems);
    if (problems.length > 0) return invalidForm(problems);
  }
  if (body.type === 4 || body.type === 7) {
    const refused = checkMessage(state, r, data);
    if (refused) return refused;
  }
  ia.acknowledged = body.type;
  if (body.type === 4 || body.type === 5) {
    const flags = (typeof data.flags === "number" ? data.flags : 0) | (body.type === 5 ? 128 : 0);
    ia.messageId = newMessage(state, r, ia.channelId, { ...data, flags }).id;
  }
  if (body.type === 7 && ia.messageId !== undefined) {
    const message = state.messages.get(ia.messageId);
    if (message) editMessage(state, r, message, data);
  }
  return { status: 204 };
}

function webhook(state: RouteState, r: RecordedRequest, itoken: string, messageRef: string | undefined): Answer {
  const ia = [...state.interactions.values()].find((i) => i.token === itoken);
  if (ia === undefined || ia.acknowledged === undefined) return UNKNOWN_WEBHOOK;
  const body = (r.body ?? {}) as Record<string, unknown>;
  if (messageRef === undefined) {
    if (r.method !== "POST") return NOT_FOUND;
    return checkMessage(state, r, body) ?? { status: 200, body: newMessage(state, r, ia.channelId, body) };
  }
  const id = messageRef === "@original" ? ia.messageId : messageRef;
  const message = id === undefined ? undefined : state.messages.get(id);
  if (message === undefined) return { status: 404, body: { message: "Unknown Message", code: 10008 } };
  if (r.method === "GET") return { status: 200, body: message };
  if (r.method === "DELETE") {
    state.messages.delete(message.id);
    return { status: 204 };
  }
  if (r.method !== "PATCH") return NOT_FOUND;
  return checkMessage(state, r, body) ?? { status: 200, body: editMessage(state, r, message, body) };
}

function commands(state: RouteState, r: RecordedRequest, key: string): Answer {
  if (r.method === "GET") return { status: 200, body: state.commands.get(key) ?? [] };
  if (r.method !== "PUT") return NOT_FOUND;
  const list = Array.isArray(r.body) ? r.body : [];
  const problems = list.flatMap((c: unknown, i) => checkApplicationCommand(c, `commands[${i}]`));
  if (list.length > 100) problems.push(`${list.length} commands, more than 100`);
  violate(state, r, problems);
  if (problems.length > 0) return invalidForm(problems);
  const saved = list.map((c: unknown) => ({
    id: snowflake(),
    application_id: state.applicationId,
    version: snowflake(),
    ...(key === "global" ? {} : { guild_id: key }),
    ...(c as Record<string, unknown>),
  }));
  state.commands.set(key, saved);
  return { status: 200, body: saved };
}

function rateLimited(state: RouteState, r: RecordedRequest): Answer | undefined {
  const rule = state.rateLimits.find((l) => l.remaining > 0 && l.method === r.method && r.path.startsWith(l.pathPrefix));
  if (rule === undefined) return undefined;
  rule.remaining -= 1;
  const retry = String(rule.retryAfterSeconds);
  return {
    status: 429,
    body: { message: "You are being rate limited.", retry_after: rule.retryAfterSeconds, global: false },
    headers: {
      "retry-after": retry,
      "x-ratelimit-limit": "5",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset-after": retry,
      "x-ratelimit-bucket": "fake-bucket",
      "x-ratelimit-scope": "user",
    },
  };
}

/**
 * A channel's posts against its limit, as Discord keeps a bucket: a window opens at its first
 * post and takes `limit` posts; past them a 429 until it ends. Every answer carries the bucket's
 * headers, the next post's answer too.
 */
function channelBucket(state: RouteState, channelId: string): { refused?: Answer; headers?: Record<string, string> } {
  const rule = state.channelLimit;
  if (rule === undefined) return {};
  const t = state.now();
  let window = state.channelWindows.get(channelId);
  if (window === undefined || t >= window.endsAt) {
    window = { endsAt: t + rule.windowMs, used: 0 };
    state.channelWindows.set(channelId, window);
  }
  const resetAfter = ((window.endsAt - t) / 1000).toFixed(3);
  const headers = (remaining: number): Record<string, string> => ({
    "x-ratelimit-limit": String(rule.limit),
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset-after": resetAfter,
    "x-ratelimit-reset": ((window.endsAt) / 1000).toFixed(3),
    "x-ratelimit-bucket": "fake-channel-messages",
  });
  if (window.used >= rule.limit) {
    return {
      refused: {
        status: 429,
        body: { message: "You are being rate limited.", retry_after: Number(resetAfter), global: false },
        headers: { ...headers(0), "retry-after": resetAfter, "x-ratelimit-scope": "user" },
      },
    };
  }
  window.used += 1;
  return { headers: headers(rule.limit - window.used) };
}

/** Answers one REST request (path already stripped of `/api/v10`). */
export function routeRequest(state: RouteState, r: RecordedRequest): Answer {
  const parts = r.path.split("/").slice(1);
  const [head, a, b, c, d, e] = parts;
  const limited = rateLimited(state, r);
  if (limited) return limited;
  const refusal = state.refusals.find((l) => l.remaining > 0 && l.method === r.method && r.path.startsWith(l.pathPrefix));
  if (refusal) {
    refusal.remaining -= 1;
    return { status: refusal.status, body: { message: refusal.message, code: refusal.code } };
  }

  if (head === "interactions" && c === "callback" && a && b && r.method === "POST") return callback(state, r, a, b);
  if (head === "webhooks" && a === state.applicationId && b) {
    if (c === undefined) return webhook(state, r, b, undefined);
    if (c === "messages" && d && e === undefined) return webhook(state, r, b, d);
    return NOT_FOUND;
  }
  if (!r.authorized) return UNAUTHORIZED;

  if (head === "gateway" && a === "bot" && r.method === "GET") {
    return {
      status: 200,
      body: {
        url: state.gatewayUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
      },
    };
  }
  if (head === "users" && a === "@me" && b === "guilds" && c === undefined && r.method === "GET") {
    // Discord's order and paging: by id, after the id given, at most `limit` (default 200).
    const after = BigInt(r.query.after ?? "0");
    const limit = Math.min(200, Number(r.query.limit ?? "200"));
    const ids = [...state.guilds].map(BigInt).filter((id) => id > after).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    return { status: 200, body: ids.slice(0, limit).map((id) => ({ id: id.toString(), name: `server ${id}`, icon: null, owner: false, permissions: "0", features: [] })) };
  }
  if (head === "users" && a === "@me" && r.method === "GET") {
    return { status: 200, body: { id: state.botUser.id, username: state.botUser.username, discriminator: "0", avatar: null, bot: true } };
  }
  if (head === "applications" && a === state.applicationId) {
    if (b === "commands" && c === undefined) return commands(state, r, "global");
    if (b === "guilds" && c && d === "commands" && e === undefined) return commands(state, r, c);
    return NOT_FOUND;
  }
  if (head === "applications") return { status: 403, body: { message: "Missing Access", code: 50001 } };
  if (head === "channels" && a) {
    const fault = state.channelFaults.get(a);
    if (fault) return CHANNEL_FAULTS[fault] ?? NOT_FOUND;
    if (b === undefined && r.method === "GET") return { status: 200, body: { id: a, type: 0, name: "general" } };
    if (b === "messages" && c === undefined && r.method === "POST") {
      const bucket = channelBucket(state, a);
      if (bucket.refused) return bucket.refused;
      const body = (r.body ?? {}) as Record<string, unknown>;
      return checkMessage(state, r, body) ?? { status: 200, body: newMessage(state, r, a, body), ...(bucket.headers ? { headers: bucket.headers } : {}) };
    }
  }
  return NOT_FOUND;
}
