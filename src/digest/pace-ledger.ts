/**
 * The platform's pace as a ledger of sends: a global spacing (messages a second), a per-chat
 * sliding window (messages a minute), a per-chat spacing (the least time between two messages to
 * one chat) and a pause after a 429. The paced queue asks it for a slot before each send; this
 * one keeps the books in process, `src/redis/pace-ledger.ts` keeps them in Redis for every
 * process of the bot. A chat held by its own window or spacing holds no other chat.
 */

/** A slot for the chat at `index` of the candidates (its send is `stamp`), or how long until one may be free. */
export type PaceSlot = { index: number; stamp: string } | { waitMs: number };

export interface PaceLedger {
  /**
   * Takes a send slot at `t` for the first of `chatIds` that may get one now, counting it at
   * once: the global pace and a pause hold every chat; a chat's window holds only that chat.
   * `reserve`: slots of a chat's minute this send may not take, left to others (the replies to
   * commands, which scheduled posts must not crowd out), and one more for each reply the chat
   * had in its minute: a chat whose members are asking gets more of its minute for answers.
   * A send with `reserve` 0 is such a reply. Default 0.
   */
  take(chatIds: readonly string[], t: number, reserve?: number): Promise<PaceSlot>;
  /**
   * The send `stamp` reached the platform at `at`. A send counts from its start until it is
   * answered, then from the answer: one held up in flight may arrive late, and counting from
   * its start would let the next minute's sends land inside the same 60 s at the platform.
   */
  answered(chatId: string, stamp: string, at: number): Promise<void>;
  /** A 429: no slot for any chat before `until` (epoch ms). */
  pause(until: number): Promise<void>;
  /**
   * A reply to a person waits for `chatId`: sends that leave slots to others (`reserve` > 0,
   * the scheduled posts) take none of that chat's slots before `until`, so the reply gets the
   * chat's next one rather than queueing behind a backlog. `until` 0 lifts the hold.
   */
  hold(chatId: string, until: number): Promise<void>;
}

export interface PaceOptions {
  /** Messages a second across all chats; undefined = no global pace. */
  ratePerSecond?: number;
  /** Messages a minute to one chat; undefined = no per-chat window. */
  perChatPerMinute?: number;
  /** Least ms from one message to a chat (its start, or its answer once answered) to the next; undefined = none. */
  perChatSpacingMs?: number;
}

/** A send counted before the ledger was made: a restarted process's last minute, as its store recorded it. */
export interface PastSend {
  chatId: string;
  /** When it counts from (epoch ms). */
  at: number;
}

export const MINUTE = 60_000;

/** Candidates looked at per take: scanning further costs more than waiting (digests rarely send twice to one chat). */
export const MAX_CANDIDATES = 65;

export function spacingMs(opts: PaceOptions): number {
  return opts.ratePerSecond ? 1000 / opts.ratePerSecond : 0;
}

/**
 * The ledger in this process; `sent` are sends made before it (a restart's last minute), counted
 * in the chats' books as if this ledger had taken them.
 */
export function memoryPaceLedger(opts: PaceOptions & { sent?: readonly PastSend[] }): PaceLedger {
  const spacing = spacingMs(opts);
  const perChat = opts.perChatPerMinute ?? 0;
  const chatSpacing = opts.perChatSpacingMs ?? 0;
  const booked = perChat > 0 || chatSpacing > 0;
  /** Per chat, its sends of the last minute: stamp → when it counts from. */
  const recent = new Map<string, Map<string, number>>();
  let nextStartAt = 0;
  let pausedUntil = 0;
  let seq = 0;
  /** Chats a reply waits for: until when posts leave them alone. */
  const holds = new Map<string, number>();
  /** The stamps of the replies (sends with no reserve) still in a chat's minute. */
  const replies = new Set<string>();

  const book = (chatId: string, stamp: string, at: number): void => {
    if (booked) recent.set(chatId, (recent.get(chatId) ?? new Map<string, number>()).set(stamp, at));
  };
  for (const s of opts.sent ?? []) book(s.chatId, `m${(seq += 1)}`, s.at);

  /** Ms until `chatId` may get another message with `reserve` of its minute left to others (0 = now). */
  const chatWait = (chatId: string, t: number, reserve: number): number => {
    const held = reserve > 0 ? (holds.get(chatId) ?? 0) - t : 0;
    if (held > 0) return held;
    const stamps = recent.get(chatId);
    if (stamps === undefined) return 0;
    for (const [stamp, at] of stamps) {
      if (at > t - MINUTE) continue;
      stamps.delete(stamp);
      replies.delete(stamp);
    }
    if (stamps.size === 0) {
      recent.delete(chatId);
      return 0;
    }
    const answered = reserve > 0 ? [...stamps.keys()].filter((s) => replies.has(s)).length : 0;
    const limit = Math.max(1, perChat - reserve - answered);
    // Room comes back as the send that makes the window one too full passes its minute.
    const windowWait = perChat > 0 && stamps.size >= limit ? ([...stamps.values()].sort((a, b) => a - b)[stamps.size - limit] as number) + MINUTE - t : 0;
    const spacingWait = chatSpacing > 0 ? Math.max(...stamps.values()) + chatSpacing - t : 0;
    return Math.max(windowWait, spacingWait);
  };

  return {
    async take(chatIds, t, reserve = 0) {
      const gate = Math.max(pausedUntil, nextStartAt) - t;
      if (gate > 0) return { waitMs: gate };
      let soonest = Infinity;
      for (let i = 0; i < chatIds.length && i < MAX_CANDIDATES; i++) {
        const chatId = chatIds[i] as string;
        const wait = chatWait(chatId, t, reserve);
        if (wait > 0) {
          soonest = Math.min(soonest, wait);
          continue;
        }
        nextStartAt = Math.max(t, nextStartAt) + spacing;
        const stamp = `m${(seq += 1)}`;
        book(chatId, stamp, t);
        if (reserve === 0 && booked) replies.add(stamp);
        return { index: i, stamp };
      }
      return { waitMs: Number.isFinite(soonest) ? soonest : 0 };
    },
    async answered(chatId, stamp, at) {
      const stamps = recent.get(chatId);
      if (stamps?.has(stamp)) stamps.set(stamp, at);
    },
    async pause(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
    async hold(chatId, until) {
      if (until > 0) holds.set(chatId, until);
      else holds.delete(chatId);
    },
  };
}
