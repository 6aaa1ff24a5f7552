/**
 * Reply actions → Discord buttons. A command button's `custom_id` carries its whole action
 * (command, arguments, edit-in-place) when that fits in 100 characters, and otherwise a short
 * key into the store (see `button-actions.ts`), so a press works after a restart and in any
 * process; a stored action expires and the adapter says so when an old button is pressed.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from "discord.js";
import type { Action } from "../../core/reply.js";
import type { ButtonActionStore } from "../../store/types.js";
import { createButtonActions, type StoredAction } from "../button-actions.js";
import { safeHttpUrl } from "../../core/format/index.js";
import { stripControl, truncate } from "./text.js";

export type { StoredAction };

/** Discord's component limits. */
export const COMPONENT_LIMITS = { rows: 5, buttonsPerRow: 5, customId: 100, label: 80, url: 512 } as const;

/** Every custom id this bot creates starts with this. */
export const CUSTOM_ID_PREFIX = "cp:";

export interface ActionStore {
  /** The custom id (after the prefix) of a button that runs `action`. */
  put(action: StoredAction): string;
  /** The action behind a custom id's body, or undefined once it expired or was never ours. */
  get(id: string): Promise<StoredAction | undefined>;
}

export interface ActionStoreOptions {
  /** How long a stored action works after it was sent. Default 8 days. */
  ttlMs?: number;
  /** Stored actions remembered in process without asking the store. Default 20 000. */
  max?: number;
  /** Clock (epoch ms). Default `Date.now`. */
  now?: () => number;
  /** Where long actions outlive the process; undefined keeps them in process only. */
  store?: ButtonActionStore;
  /** A store read or write failed (logged by the adapter). */
  onStoreError?: (error: unknown) => void;
  /** What signs the actions carried in buttons: the bot's token. Default: random for this process. */
  secret?: string;
}

export function createActionStore(opts: ActionStoreOptions = {}): ActionStore {
  const actions = createButtonActions({ ...opts, fits: (data) => CUSTOM_ID_PREFIX.length + data.length <= COMPONENT_LIMITS.customId });
  return { put: (action) => actions.encode(action), get: (id) => actions.decode(id) };
}

/** The body of one of our custom ids, or undefined for a foreign one. */
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
  const id = store.put({ command: action.command, args: action.args, edit: action.edit });
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
