/**
 * The load of the workers benchmark: command streams through the fake Bot API's webhook
 * delivery, each sending its next command when its last was answered, every answer timed and
 * matched to its command by the message it replies to.
 */
import type { Chat, User } from "grammy/types";
import type { Sandbox } from "../src/sandbox/index.js";
import { fakeUser, groupChat, type FakeTelegram } from "../test/fakes/telegram-api.js";
import { Deadline } from "./measure.js";

/** A command not answered within this is given up on and counts as unanswered. */
export const ANSWER_TIMEOUT_MS = 5_000;
/** The budgets allow 10 commands a minute per user and 30 per chat: each chat asks 20, 5 from each of 4 users. */
export const PER_CHAT = 20;
export const USERS_PER_CHAT = 4;

export interface Drive {
  sent: number;
  /** ms from each update being queued at the fake (its webhook POST leaves at once) to its answer arriving there. */
  times: number[];
  /** From the first command to the last answer. */
  seconds: number;
  /** Answers that carried no price. */
  empty: number;
  /** Market calls the sandbox served meanwhile: cache refreshes, none needed to answer. */
  upstream: number;
}

/** Several drives as one: their commands, answers and windows added up. */
export function merge(drives: readonly Drive[]): Drive {
  return {
    sent: drives.reduce((s, d) => s + d.sent, 0),
    times: drives.flatMap((d) => d.times),
    seconds: drives.reduce((s, d) => s + d.seconds, 0),
    empty: drives.reduce((s, d) => s + d.empty, 0),
    upstream: drives.reduce((s, d) => s + d.upstream, 0),
  };
}

/** Answers a second over the drive's windows. */
export function throughput(d: Drive): number {
  return d.times.length / Math.max(0.001, d.seconds);
}

/** Fresh group chats for every command stream, so no budget runs out however long the benchmark lasts. */
export class Chats {
  private next = 0;

  /** A new command stream: the chat and sender of its `k`-th command. */
  stream(): (k: number) => { chat: Chat; from: User } {
    const chats: number[] = [];
    return (k) => {
      const index = Math.floor(k / PER_CHAT);
      chats[index] ??= this.next++;
      const c = chats[index] as number;
      return { chat: groupChat({ id: -(700_000 + c) }), from: fakeUser({ id: 800_000 + c * USERS_PER_CHAT + (k % USERS_PER_CHAT) }) };
    };
  }
}

/** How long a drive lasts: `ms`, or until `commands` were sent if that comes first. */
export interface Load {
  lanes: number;
  ms: number;
  commands?: number;
  /** How long a command's answer is waited for before it counts as unanswered; default `ANSWER_TIMEOUT_MS`. */
  answerTimeoutMs?: number;
}

/** `load.lanes` command streams asking `ask(n)` for the n-th command of the drive. */
export async function drive(tg: FakeTelegram, sandbox: Sandbox, chats: Chats, load: Load, ask: (n: number) => string): Promise<Drive> {
  const deadline = new Deadline(load.ms);
  const commands = load.commands ?? Number.POSITIVE_INFINITY;
  const waiting = new Map<string, (at: number, text: string) => void>();
  let seen = tg.sent.length;
  // One scan of the new messages at each change at the fake, for every lane, instead of a
  // waiter per lane rescanning the list.
  const unsubscribe = tg.onChange(() => {
    const sent = tg.sent;
    for (; seen < sent.length; seen++) {
      const s = sent[seen];
      const key = `${s?.chatId}:${s?.replyTo}`;
      const resolve = waiting.get(key);
      if (s && resolve) {
        waiting.delete(key);
        resolve(s.at, s.text);
      }
    }
  });
  const answerTimeoutMs = load.answerTimeoutMs ?? ANSWER_TIMEOUT_MS;
  const times: number[] = [];
  let sent = 0;
  let empty = 0;
  const upstreamBefore = sandbox.stats().total;
  const started = Date.now();
  let last = started;
  try {
    await Promise.all(
      Array.from({ length: load.lanes }, async () => {
        const next = chats.stream();
        for (let k = 0; !deadline.passed() && sent < commands; k++) {
          const { chat, from } = next(k);
          const at = Date.now();
          const message = tg.sendText(chat, ask(sent++), { from });
          const key = `${chat.id}:${message.message_id}`;
          const answer = await new Promise<{ at: number; text: string } | undefined>((resolve) => {
            const timer = setTimeout(() => (waiting.delete(key), resolve(undefined)), answerTimeoutMs);
            waiting.set(key, (answeredAt, text) => (clearTimeout(timer), resolve({ at: answeredAt, text })));
          });
          if (answer === undefined) continue;
          times.push(answer.at - at);
          if (!answer.text.includes("$")) empty++;
          last = Math.max(last, answer.at);
        }
      }),
    );
  } finally {
    unsubscribe();
  }
  return { sent, times, seconds: (last - started) / 1000, empty, upstream: sandbox.stats().total - upstreamBefore };
}
