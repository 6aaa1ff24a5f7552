/**
 * Telegram buttons carry at most 64 bytes of callback data: an action that fits travels in it
 * whole, a longer one (an EVM address alone is 42) is kept in the store under a short key
 * (see `button-actions.ts`). A press on an expired one is answered "this button has expired".
 */
import { createButtonActions, type ButtonActions, type StoredAction } from "../button-actions.js";
import type { ButtonActionStore } from "../../store/types.js";

export type { StoredAction };

/** Telegram's limit on `callback_data`, in bytes. */
export const CALLBACK_DATA_MAX_BYTES = 64;

export interface ActionStoreOptions {
  /** Stored actions remembered in process without asking the store. Default 20 000. */
  max?: number;
  /** How long a stored action keeps working. Default 8 days. */
  ttlMs?: number;
  /** Clock (epoch ms). Default `Date.now`. */
  now?: () => number;
  /** Where long actions outlive the process; undefined keeps them in process only. */
  store?: ButtonActionStore;
  /** A store read or write failed (logged by the adapter). */
  onStoreError?: (error: unknown) => void;
  /** What signs the actions carried in buttons: the bot's token. Default: random for this process. */
  secret?: string;
}

export class ActionStore {
  private readonly actions: ButtonActions;

  constructor(opts: ActionStoreOptions = {}) {
    this.actions = createButtonActions({ ...opts, fits: (data) => Buffer.byteLength(data) <= CALLBACK_DATA_MAX_BYTES });
  }

  /** The callback data of a button that runs `action` (at most 64 bytes). */
  put(action: StoredAction): string {
    return this.actions.encode(action);
  }

  /** The action behind callback data, or `undefined` when it expired or was never ours. */
  get(data: string): Promise<StoredAction | undefined> {
    return this.actions.decode(data);
  }
}
