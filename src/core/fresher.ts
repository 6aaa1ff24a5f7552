/**
 * Asking again for a fresher answer: one rule for every platform. When a person's answer
 * showed older data (the market service did not answer in time), the core asks the same
 * question again after a short wait, twice at most, outside the command budget (the person
 * asked once), and hands the first answer with fresh data to the adapter, which edits the
 * message it sent. An answer still older waits for the next ask; a failure ends the asking,
 * since the older answer says how old it is.
 */
import type { Logger } from "pino";
import type { Reply } from "./reply.js";

/** Where a fresher answer goes: the adapter puts it in place of the message it sent. */
export type OnFresher = (reply: Reply) => Promise<void>;

/** How an adapter asks to be handed a fresher answer. */
export interface Answering {
  onFresher?: OnFresher;
  /**
   * The platform must answer every command (a Discord interaction): over the budget, the
   * sentence that says when to try again comes every time, never silence.
   */
  owed?: boolean;
}

export interface FresherOptions {
  /** When to ask again, ms from the first answer. Default 3 s and 10 s. */
  afterMs?: readonly number[];
  /** Waits `ms`. Default a timer that holds no process open. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Aborted when the bot stops: a re-ask still waiting is dropped, so nothing asks the market
   * or edits a message through a platform that is shutting down.
   */
  signal?: AbortSignal;
}

const DEFAULT_AFTER_MS: readonly number[] = [3_000, 10_000];

function timer(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Whether `reply` showed data older than asked for: the core's stale note and the footer say so. */
export function showedOlderData(reply: Reply | null): reply is Reply {
  return reply !== null && reply.error === undefined && reply.footer?.stale === true;
}

/**
 * When `first` showed older data and the adapter wants fresher answers, asks `again` after
 * each wait and hands the first fresh answer to `onFresher`. Runs in the background; the promise
 * tells when the asking ended, and never rejects.
 */
export function askAgainWhenOlder(
  first: Reply | null,
  again: () => Promise<Reply>,
  answering: Answering,
  opts: FresherOptions,
  log: Logger,
): Promise<void> {
  const onFresher = answering.onFresher;
  // A function, not a narrowed field: the signal may abort while the loop waits.
  const stopped = (): boolean => opts.signal?.aborted === true;
  if (onFresher === undefined || !showedOlderData(first) || stopped()) return Promise.resolve();
  const sleep = opts.sleep ?? timer;
  return (async () => {
    let waited = 0;
    for (const at of opts.afterMs ?? DEFAULT_AFTER_MS) {
      await sleep(Math.max(0, at - waited));
      waited = at;
      if (stopped()) return;
      const next = await again();
      if (next.error !== undefined || stopped()) return;
      if (next.footer?.stale === true) continue;
      await onFresher(next);
      return;
    }
  })().catch((err: unknown) => {
    // The older answer stands in the chat, saying how old it is.
    log.warn({ err: err instanceof Error ? err.message : String(err) }, "fresher answer not delivered");
  });
}
