import type { PlatformAdapter, SendOutcome } from "../../src/adapters/types.js";
import type { Reply } from "../../src/core/reply.js";

/**
 * A Telegram adapter for the scheduled senders' tests (digests, launches): it records every send
 * it was asked for and answers per chat as told — one answer every time, or a list answered in
 * turn and then `delivered`; `delivered` for a chat not named.
 */
export function recordingAdapter(answers: Record<string, SendOutcome | SendOutcome[]> = {}): {
  adapter: PlatformAdapter;
  sent: { chatId: string; reply: Reply }[];
} {
  const sent: { chatId: string; reply: Reply }[] = [];
  const adapter: PlatformAdapter = {
    platform: "telegram",
    start: async () => undefined,
    stop: async () => undefined,
    isReady: () => true,
    send: async (chatId, reply) => {
      sent.push({ chatId, reply });
      const answer = answers[chatId];
      return (Array.isArray(answer) ? answer.shift() : answer) ?? { kind: "delivered" };
    },
  };
  return { adapter, sent };
}
