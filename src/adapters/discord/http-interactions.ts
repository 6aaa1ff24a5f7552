/**
 * Interactions over HTTP: Discord POSTs each slash command, button and autocomplete to the
 * bot's interactions URL, signed with the application's Ed25519 key, and takes the HTTP
 * answer as the interaction's first response. Any worker can serve it. The interaction runs
 * through the adapter's own handling (the same discord.js objects the gateway makes); the one
 * difference is where its first response goes, so the REST client's first callback for such
 * an interaction is caught here and becomes the HTTP answer. Later edits and follow-ups go
 * through REST as usual.
 */
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RESTOptions, ResponseLike } from "discord.js";
import type { Logger } from "pino";
import { multipartBytes } from "./rest-agent.js";

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

/** The first response of an HTTP interaction, as the HTTP answer carries it. */
export interface HttpAnswer {
  contentType: string;
  body: Buffer;
}

export interface InteractionCallbacks {
  /** Wraps a REST client's `makeRequest`: an awaited interaction's first callback is answered here. */
  wrap(next: MakeRequest): MakeRequest;
  /** The first callback of interaction `id` once the adapter makes it, or undefined after `withinMs`. */
  expect(id: string, withinMs: number): Promise<HttpAnswer | undefined>;
}

const CALLBACK = /\/interactions\/(\d{15,25})\/[^/]+\/callback(?:\?|$)/;

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

async function answerOf(init: RequestInit): Promise<HttpAnswer> {
  const body = init.body;
  if (typeof body === "string") return { contentType: "application/json", body: Buffer.from(body, "utf8") };
  // With a picture the callback is multipart; Discord takes the same form as the HTTP answer.
  return multipartBytes(body);
}

export function createInteractionCallbacks(): InteractionCallbacks {
  const waiting = new Map<string, (answer: HttpAnswer) => void>();
  return {
    wrap: (next) => async (url, init) => {
      const id = CALLBACK.exec(url)?.[1];
      const answer = id === undefined ? undefined : waiting.get(id);
      if (id === undefined || answer === undefined) return next(url, init);
      waiting.delete(id);
      answer(await answerOf(init));
      return accepted();
    },
    expect(id, withinMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(undefined);
        }, withinMs);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
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
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    } catch {
      return send(res, 400, "text/plain", "not JSON\n");
    }
    // PING: Discord checks the URL this way when it is saved in the developer portal.
    if (payload.type === 1) return send(res, 200, "application/json", JSON.stringify({ type: 1 }));
    const id = typeof payload.id === "string" ? payload.id : "";
    if (!/^\d{15,25}$/.test(id)) return send(res, 400, "text/plain", "no interaction id\n");
    const answer = opts.callbacks.expect(id, DISCORD_ANSWER_MS);
    if (!opts.deliver(payload)) return send(res, 503, "text/plain", "stopping\n");
    const first = await answer;
    if (first === undefined) {
      opts.logger.warn({ interaction: id, type: payload.type }, "discord HTTP interaction got no answer within 3 s");
      return send(res, 500, "text/plain", "no answer\n");
    }
    send(res, 200, first.contentType, first.body);
  };
}
