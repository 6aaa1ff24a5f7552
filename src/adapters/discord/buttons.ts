/**
 * Reply actions → Discord buttons. A command button's `custom_id` is a short id into an
 * in-process store of what it runs (command, arguments, edit-in-place), so it always fits in
 * 100 characters whatever the arguments; the entry expires and the adapter says so when an old
 * button is pressed.
 */
import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from "discord.js";
import type { Action } from "../../core/reply.js";
import { safeHttpUrl } from "../../core/format/index.js";
import { stripControl, truncate } from "./text.js";

/** Discord's component limits. */
export const COMPONENT_LIMITS = { rows: 5, buttonsPerRow: 5, customId: 100, label: 80, url: 512 } as const;

/** Every custom id this bot creates starts with this. */
export const CUSTOM_ID_PREFIX = "cp:";

/** What a pressed command button runs. */
export interface StoredAction {
  command: string;
  args: string[];
  /** Replace the message the button sits on (refresh, paging, interval) instead of posting. */
  edit: boolean;
}

export interface ActionStore {
  /** Stores an action and returns its short id. */
  put(action: StoredAction): string;
  /** The action behind an id, or undefined once it expired or was evicted. */
  get(id: string): StoredAction | undefined;
}

export interface ActionStoreOptions {
  /** How long a button works after it was sent. Default 1 hour. */
  ttlMs?: number;
  /** Most actions remembered; the least recently used are forgotten first. Default 20 000. */
  max?: number;
  /** Clock (ms). Default performance.now / Date.now, as lru-cache picks. */
  now?: () => number;
}

/** An in-process action store with expiry and a size bound, so memory stays flat. */
export function createActionStore(opts: ActionStoreOptions = {}): ActionStore {
  const cache = new LRUCache<string, StoredAction>({
    max: opts.max ?? 20_000,
    ttl: opts.ttlMs ?? 60 * 60 * 1000,
    // Read the clock on every check: an injected clock moves in jumps.
    ttlResolution: 0,
    ...(opts.now ? { perf: { now: opts.now } } : {}),
  });
  return {
    put(action) {
      const id = randomBytes(9).toString("base64url");
      cache.set(id, action);
      return id;
    },
    get: (id) => cache.get(id),
  };
}

/** The store id in one of our custom ids, or undefined for a foreign one. */
export function actionIdOf(customId: string): string | undefined {
  return customId.startsWith(CUSTOM_ID_PREFIX) ? customId.slice(CUSTOM_ID_PREFIX.length) : undefined;
}

function label(text: string): string {
  const clean = truncate(stripControl(text).replace(/\s+/g, " ").trim(), COMPONENT_LIMITS.label);
  return clean === "" ? "…" : clean;
}

function button(action: Action, store: ActionStore): APIButtonComponent | undefined {
  if (action.kind === "url") {
    const url = safeHttpUrl(action.url, COMPONENT_LIMITS.url);
    return url === undefined ? undefined : { type: ComponentType.Button, style: ButtonStyle.Link, label: label(action.label), url };
  }
  const id = store.put({ command: action.command, args: [...action.args], edit: action.edit });
  return {
    type: ComponentType.Button,
    style: action.edit ? ButtonStyle.Secondary : ButtonStyle.Primary,
    label: label(action.label),
    custom_id: `${CUSTOM_ID_PREFIX}${id}`,
  };
}

/**
 * Rows of buttons within Discord's limits: at most 5 rows of 5; a longer row wraps onto the
 * next, and what does not fit in 5 rows is left out. Links that are not http(s) are dropped.
 */
export function renderButtons(actions: readonly (readonly Action[])[], store: ActionStore): APIActionRowComponent<APIButtonComponent>[] {
  const rows: Action[][] = [];
  for (const row of actions) {
    const usable = row.filter((a) => a.kind === "command" || safeHttpUrl(a.url, COMPONENT_LIMITS.url) !== undefined);
    for (let i = 0; i < usable.length; i += COMPONENT_LIMITS.buttonsPerRow) {
      rows.push(usable.slice(i, i + COMPONENT_LIMITS.buttonsPerRow));
    }
  }
  // Only buttons that are shown get a store entry.
  return rows.slice(0, COMPONENT_LIMITS.rows).map((row) => ({
    type: ComponentType.ActionRow,
    components: row.map((a) => button(a, store)).filter((b): b is APIButtonComponent => b !== undefined),
  }));
}
