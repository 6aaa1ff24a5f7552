/**
 * Buttons carry at most 64 bytes of callback data, and an EVM address alone is 42: the
 * action behind a button is kept here and the button carries a short id into it. Entries
 * expire; a press on an expired one is answered "this button has expired".
 */
import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";

/** What pressing a command button does. */
export interface StoredAction {
  command: string;
  args: readonly string[];
  /** Replace the message the button sits on instead of posting a new one. */
  edit: boolean;
}

export interface ActionStoreOptions {
  /** Most actions kept; the least recently used go first. Default 50 000. */
  max?: number;
  /** How long a button keeps working. Default 24 h. */
  ttlMs?: number;
  /** Clock (epoch ms). Default `Date.now`. */
  now?: () => number;
}

/** Prefix of callback data that names a stored action. */
const PREFIX = "a:";

/** An in-process store of button actions, LRU with expiry. */
export class ActionStore {
  private readonly cache: LRUCache<string, StoredAction>;
  // The same action keeps its id, so that re-rendering an unchanged card yields identical
  // markup and Telegram can answer "message is not modified".
  private readonly ids: LRUCache<string, string>;

  constructor(opts: ActionStoreOptions = {}) {
    const now = opts.now ?? Date.now;
    this.cache = new LRUCache<string, StoredAction>({
      max: opts.max ?? 50_000,
      ttl: opts.ttlMs ?? 24 * 60 * 60 * 1000,
      perf: { now },
    });
    this.ids = new LRUCache<string, string>({ max: opts.max ?? 50_000, ttl: opts.ttlMs ?? 24 * 60 * 60 * 1000, perf: { now } });
  }

  /** Stores `action` (or renews it when stored); returns the callback data for its button (10 bytes). */
  put(action: StoredAction): string {
    const stored = { command: action.command, args: [...action.args], edit: action.edit };
    const key = JSON.stringify(stored);
    const known = this.ids.get(key);
    const id = known !== undefined && this.cache.has(known) ? known : randomBytes(6).toString("base64url");
    this.cache.set(id, stored);
    this.ids.set(key, id);
    return PREFIX + id;
  }

  /** The action behind callback data, or `undefined` when it expired or was never ours. */
  get(data: string): StoredAction | undefined {
    return data.startsWith(PREFIX) ? this.cache.get(data.slice(PREFIX.length)) : undefined;
  }
}
