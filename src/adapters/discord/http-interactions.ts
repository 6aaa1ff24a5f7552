/**
 * Interactions over HTTP: Discord POSTs each slash command, button and autocomplete to the
 * bot's interactions URL, signed with the application's Ed25519 key, and takes the HTTP
 * answer as the interaction's first response. Any worker can serve it. The interaction runs
 * through the adapter's own handling (the same discord.js objects the gateway makes); the one
 * difference is where its first response goes, so the REST client's first callback for such
 * an interaction is caught here and becomes the HTTP answer. Later edits and follow-ups go
 * through REST as usual. Discord takes no files in an HTTP answer (a multipart one fails the
 * interaction), so a first response with a picture is deferred there and put in through the
 * interaction's webhook once the deferral is on its way.
 */
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RESTOptions, ResponseLike } from "discord.js";
import type { Logger } from "pino";
import { isObject } from "../payload-shape.js";

/** Where Discord is told to send interactions (the developer portal's "Interactions Endpoint URL"). */
export const INTERACTIONS_PATH = "/discord/interactions";

/** Discord's window for the first response. */
const DISCORD_ANSWER_MS = 3_000;
/** Interactions are small; a body past this is not one. */
const MAX_BODY_BYTES = 1024 * 1024;
/** A signature older or newer than this is refused, so a captured request cannot be replayed later. */
const MAX_SIGNATURE_AGE_S = 300;
/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

type MakeRequest = RESTOptions["makeRequest"];

/** The application's public key (64 hex digits, as the developer portal shows it). */
export function discordPublicKey(hex: string): KeyObject {
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, "hex")]), format: "der", type: "spki" });
}

/** Whether `body` with `timestamp` carries Discord's signature. */
export function signedByDiscord(key: KeyObject, signature: string, timestamp: string, body: Buffer, nowMs: number): boolean {
  if (!/^[0-9a-f]{128}$/i.test(signature) || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_SIGNATURE_AGE_S) return false;
  return verify(null, Buffer.concat([Buffer.from(timestamp, "utf8"), body]), key, Buffer.from(signature, "hex"));
}

/** The first response of an HTTP interaction, as the HTTP answer carries it (JSON). */
export interface HttpAnswer {
  body: string;
  /** Called once the answer is written to Discord. */
  written(): void;
}

export interface InteractionCallbacks {
  /** Wraps a REST client's `makeRequest`: an awaited interaction's first callback is answered here. */
  wrap(next: MakeRequest): MakeRequest;
  /** The first callback of interaction `id` of application `applicationId` once the adapter makes it, or undefined after `withinMs`. */
  expect(id: string, applicationId: string, withinMs: number): Promise<HttpAnswer | undefined>;
}

const CALLBACK = /^(.*)\/interactions\/(\d{15,25})\/([^/]+)\/callback(?:\?|$)/;
/** An UPDATE_MESSAGE (a button editing its message) defers as DEFERRED_UPDATE_MESSAGE, anything else as DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE. */
const UPDATE_MESSAGE = 7;
const EPHEMERAL = 64;
/** Waits before putting the message in again while Discord has not yet taken the deferral (404). */
const WEBHOOK_RETRY_MS = [250, 1000, 2000];

function accepted(): ResponseLike {
  const empty = new ArrayBuffer(0);
  return {
    body: null,
    bodyUsed: false,
    headers: new Headers(),
    status: 204,
    statusText: "No Content",
    ok: true,
    arrayBuffer: async () => empty,
    json: async () => undefined,
    text: async () => "",
  };
}

/**
 * A multipart interaction response as @discordjs/rest builds it (a FormData whose
 * `payload_json` holds `{ type, data }`) turned into a webhook message edit: `payload_json`
 * becomes the message (`data`), the files stay.
 */
function webhookForm(body: unknown): { payload: { type?: unknown; data?: unknown }; form: FormData } {
  if (!(body instanceof FormData)) throw new TypeError("an interaction response that is neither JSON nor multipart");
  const payload = JSON.parse(String(body.get("payload_json") ?? "{}")) as { type?: unknown; data?: unknown };
  const form = new FormData();
  form.append("payload_json", JSON.stringify(payload.data ?? {}));
  for (const [field, value] of body.entries()) if (field !== "payload_json") form.append(field, value);
  return { payload, form };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The message of a multipart first response, put in as the deferred interaction's original message. */
async function putOriginal(next: MakeRequest, url: string, init: RequestInit): Promise<ResponseLike> {
  for (let attempt = 0; ; attempt += 1) {
    const res = await next(url, init);
    const wait = WEBHOOK_RETRY_MS[attempt];
    if (res.status !== 404 || wait === undefined) return res;
    await res.arrayBuffer();
    await sleep(wait);
  }
}

interface Waiting {
  applicationId: string;
  answer(answer: HttpAnswer): void;
}

export function createInteractionCallbacks(): InteractionCallbacks {
  const waiting = new Map<string, Waiting>();
  return {
    wrap: (next) => async (url, init) => {
      const [, root, id, token] = CALLBACK.exec(url) ?? [];
      const entry = id === undefined ? undefined : waiting.get(id);
      if (root === undefined || id === undefined || token === undefined || entry === undefined) return next(url, init);
      waiting.delete(id);
      if (typeof init.body === "string") {
        entry.answer({ body: init.body, written: () => undefined });
        return accepted();
      }
      const { payload, form } = webhookForm(init.body);
      const flags = Number((payload.data as { flags?: unknown } | undefined)?.flags ?? 0) & EPHEMERAL;
      const deferral = payload.type === UPDATE_MESSAGE ? { type: 6 } : { type: 5, ...(flags === 0 ? {} : { data: { flags } }) };
      await new Promise<void>((resolve) => entry.answer({ body: JSON.stringify(deferral), written: resolve }));
      const original = `${root}/webhooks/${entry.applicationId}/${token}/messages/@original`;
      return putOriginal(next, original, { ...init, method: "PATCH", body: form });
    },
    expect(id, applicationId, withinMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(undefined);
        }, withinMs);
        waiting.set(id, {
          applicationId,
          answer: (answer) => {
            clearTimeout(timer);
            resolve(answer);
          },
        });
      });
    },
  };
}

export interface InteractionsEndpointOptions {
  /** The application's public key, 64 hex digits. */
  publicKey: string;
  callbacks: InteractionCallbacks;
  /** Hands a verified interaction to the adapter's handling; false when the adapter is stopping. */
  deliver(payload: Record<string, unknown>): boolean;
  logger: Logger;
  now?: () => number;
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Interaction types the bot answers: a command, a button, autocomplete, a modal. */
const HANDLED_TYPES = new Set([2, 3, 4, 5]);

/** Application command types: chat input, user, message. */
const COMMAND_TYPES = new Set([1, 2, 3]);

/**
 * Whether a signed payload has what discord.js reads before any handler of ours runs: who
 * asked (`user`, or a member's user), the entitlements, its `data` (a command's name and type),
 * and a button's message. Only Discord's key signs, but a malformed one is a 400, not a failure
 * of ours, nor an interaction discord.js drops without an answer.
 */
function wellFormed(p: Record<string, unknown>): boolean {
  const type = p["type"];
  const data = p["data"];
  if (typeof type !== "number" || !HANDLED_TYPES.has(type) || !isObject(data)) return false;
  const member = p["member"];
  const user = isObject(member) ? member["user"] : p["user"];
  if (!isObject(user) || typeof user["id"] !== "string" || !Array.isArray(p["entitlements"])) return false;
  if ((type === 2 || type === 4) && (typeof data["name"] !== "string" || !COMMAND_TYPES.has(data["type"] as number))) return false;
  return type !== 3 || isObject(p["message"]);
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, { "content-type": contentType, "cache-control": "no-store" });
  res.end(body);
}

/** The ops server's route for Discord's interactions URL. */
export function createInteractionsEndpoint(opts: InteractionsEndpointOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const key = discordPublicKey(opts.publicKey);
  const now = opts.now ?? Date.now;
  return async (req, res) => {
    if (req.method !== "POST") return send(res, 405, "text/plain", "method not allowed\n");
    const body = await readBody(req);
    if (body === undefined) return send(res, 413, "text/plain", "too large\n");
    const signature = String(req.headers["x-signature-ed25519"] ?? "");
    const timestamp = String(req.headers["x-signature-timestamp"] ?? "");
    if (!signedByDiscord(key, signature, timestamp, body, now())) return send(res, 401, "text/plain", "invalid request signature\n");
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return send(res, 400, "text/plain", "not JSON\n");
    }
    if (!isObject(parsed)) return send(res, 400, "text/plain", "not an interaction\n");
    const payload = parsed;
    // PING: Discord checks the URL this way when it is saved in the developer portal.
    if (payload.type === 1) return send(res, 200, "application/json", JSON.stringify({ type: 1 }));
    const id = typeof payload.id === "string" ? payload.id : "";
    const applicationId = typeof payload.application_id === "string" ? payload.application_id : "";
    if (!/^\d{15,25}$/.test(id) || !/^\d{15,25}$/.test(applicationId)) return send(res, 400, "text/plain", "no interaction id\n");
    if (!wellFormed(payload)) return send(res, 400, "text/plain", "not an interaction\n");
    const answer = opts.callbacks.expect(id, applicationId, DISCORD_ANSWER_MS);
    if (!opts.deliver(payload)) return send(res, 503, "text/plain", "stopping\n");
    const first = await answer;
    if (first === undefined) {
      opts.logger.warn({ interaction: id, type: payload.type }, "discord HTTP interaction got no answer within 3 s");
      return send(res, 500, "text/plain", "no answer\n");
    }
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    // A connection Discord dropped never finishes: the close says the answer is over either way.
    res.once("close", () => first.written());
    res.end(first.body, () => first.written());
  };
}
