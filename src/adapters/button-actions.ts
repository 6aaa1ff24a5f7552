/**
 * What a command button runs, written into the button itself. Where the whole action fits in
 * the platform's button data (Telegram 64 bytes, Discord 100 characters) it goes there and
 * works for as long as the message exists, after any restart, in any process. Where it does
 * not (an EVM address is 42 characters on its own) the button carries a short key into the
 * store, where the action lives for `ttlMs` — long enough for a daily digest read days later.
 * A press's data comes from the person's app and may be made up: inline data carries a tag
 * signed with the bot's secret, and a key finds only what the bot stored, so a forged press
 * reads as an expired button.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { LRUCache } from "lru-cache";
import { entryBound } from "../lru-bound.js";
import type { ButtonActionStore } from "../store/types.js";

/** What pressing a command button does. */
export interface StoredAction {
  command: string;
  args: readonly string[];
  /** Replace the message the button sits on instead of posting a new one. */
  edit: boolean;
}

export interface ButtonActionsOptions {
  /** Whether `data` fits in a button of the platform. */
  fits(data: string): boolean;
  /**
   * What signs inline data (the bot's token: the same in every worker, and a forger's app
   * never sees it). Default: random for this process, so its inline buttons die with it.
   */
  secret?: string;
  /** Where actions too long for their button live; undefined keeps them in this process only. */
  store?: ButtonActionStore;
  /** How long a stored action keeps working. Default 8 days: a digest's buttons work for a week. */
  ttlMs?: number;
  /** Stored actions this process remembers without asking the store. Default 20 000. */
  max?: number;
  /** Clock (epoch ms). Default `Date.now`. */
  now?: () => number;
  /** A store write failed: the button works in this process only (logged by the caller). */
  onStoreError?: (error: unknown) => void;
}

export interface ButtonActions {
  /** The button data that runs `action` (stored first when it does not fit). */
  encode(action: StoredAction): string;
  /** The action behind button data, or undefined when it expired or was never ours. */
  decode(data: string): Promise<StoredAction | undefined>;
}

export const DEFAULT_BUTTON_TTL_MS = 8 * 24 * 60 * 60 * 1000;

/**
 * Inline data: `i` + `e` (edit) or `n` (new message) + the tag + `:` + command and arguments,
 * space-separated. The tag is the first TAG_LENGTH characters of the HMAC of the rest: 36 bits,
 * more guesses than a platform lets one account press in years.
 */
const TAG_LENGTH = 6;
const INLINE = new RegExp(`^i([en])([A-Za-z0-9_-]{${TAG_LENGTH}}):(\\S.*)$`, "s");
/** Stored data: `k:` + the key. */
const KEYED = "k:";

interface Remembered {
  action: StoredAction;
  expiresAt: number;
  /** When this process last wrote it to the store (renewals are spaced, not per render). */
  writtenAt: number;
}

function tagOf(secret: string, mode: string, body: string): string {
  return createHmac("sha256", secret).update(`${mode}:${body}`).digest("base64url").slice(0, TAG_LENGTH);
}

function inline(action: StoredAction, secret: string): string | undefined {
  const words = [action.command, ...action.args];
  // A space inside a word or an empty word would read back as other words.
  if (words.some((w) => w === "" || /\s/.test(w))) return undefined;
  const mode = action.edit ? "e" : "n";
  const body = words.join(" ");
  return `i${mode}${tagOf(secret, mode, body)}:${body}`;
}

/** The action of inline data whose tag this secret signed; undefined for anything else. */
function readInline(data: string, secret: string): StoredAction | undefined {
  const m = INLINE.exec(data);
  if (m === null) return undefined;
  const [, mode = "", tag = "", body = ""] = m;
  if (!timingSafeEqual(Buffer.from(tag), Buffer.from(tagOf(secret, mode, body)))) return undefined;
  const [command, ...args] = body.split(" ");
  return { command: command as string, args, edit: mode === "e" };
}

/** The same action gets the same key in every process, so re-rendering a card yields identical markup. */
function keyOf(json: string): string {
  return createHash("sha256").update(json).digest("base64url").slice(0, 16);
}

function parse(json: string): StoredAction | undefined {
  try {
    const v = JSON.parse(json) as unknown;
    if (typeof v !== "object" || v === null) return undefined;
    const { command, args, edit } = v as Record<string, unknown>;
    if (typeof command !== "string" || typeof edit !== "boolean") return undefined;
    if (!Array.isArray(args) || !args.every((a): a is string => typeof a === "string")) return undefined;
    return { command, args, edit };
  } catch {
    return undefined;
  }
}

export function createButtonActions(opts: ButtonActionsOptions): ButtonActions {
  const now = opts.now ?? Date.now;
  const secret = opts.secret ?? randomBytes(32).toString("hex");
  const ttlMs = opts.ttlMs ?? DEFAULT_BUTTON_TTL_MS;
  const renewEveryMs = ttlMs / 8;
  const recent = new LRUCache<string, Remembered>(entryBound(opts.max ?? 20_000));
  // Writes not yet answered: a press in this process waits for its own write.
  const writing = new Map<string, Promise<void>>();
  let prunedAt = 0;

  const write = (key: string, json: string, expiresAt: number): void => {
    const store = opts.store;
    if (store === undefined) return;
    const done = store.putAction(key, json, expiresAt).catch((e: unknown) => opts.onStoreError?.(e));
    const tracked = done.finally(() => {
      if (writing.get(key) === tracked) writing.delete(key);
    });
    writing.set(key, tracked);
    const t = now();
    if (t - prunedAt >= renewEveryMs) {
      prunedAt = t;
      void store.pruneActions(t).catch((e: unknown) => opts.onStoreError?.(e));
    }
  };

  return {
    encode(action) {
      const clean: StoredAction = { command: action.command, args: [...action.args], edit: action.edit };
      const direct = inline(clean, secret);
      if (direct !== undefined && opts.fits(direct)) return direct;
      const json = JSON.stringify(clean);
      const key = keyOf(json);
      const t = now();
      const known = recent.get(key);
      if (known === undefined || t - known.writtenAt >= renewEveryMs) {
        recent.set(key, { action: clean, expiresAt: t + ttlMs, writtenAt: t });
        write(key, json, t + ttlMs);
      }
      return KEYED + key;
    },

    async decode(data) {
      if (data.startsWith("i")) return readInline(data, secret);
      if (!data.startsWith(KEYED)) return undefined;
      const key = data.slice(KEYED.length);
      const t = now();
      const known = recent.get(key);
      if (known !== undefined && known.expiresAt > t) return known.action;
      if (opts.store === undefined) return undefined;
      await writing.get(key);
      try {
        const json = await opts.store.getAction(key, t);
        return json === undefined ? undefined : parse(json);
      } catch (e) {
        opts.onStoreError?.(e);
        return undefined;
      }
    },
  };
}
