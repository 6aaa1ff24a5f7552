import { describe, expect, it } from "vitest";
import { ChatGuard, type ChatGuardOptions } from "../../../src/adapters/telegram/chat-guard.js";
import { useRedis } from "../../engines/redis.js";

type Prev = Parameters<ChatGuard["transformer"]>[0];

/** What the Bot API would answer: 403 for the chats in `refusing`, ok otherwise; every call it received. */
function botApi(refusing: Set<string>) {
  const received: string[] = [];
  const prev = (async (_method: string, payload: { chat_id?: unknown }) => {
    const chat = String(payload.chat_id);
    received.push(chat);
    return refusing.has(chat)
      ? { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" }
      : { ok: true, result: true };
  }) as unknown as Prev;
  return { prev, received };
}

async function send(guard: ChatGuard, prev: Prev, chatId: string) {
  return guard.transformer(prev, "sendMessage", { chat_id: chatId, text: "hi" } as never);
}

const { link, engine } = useRedis();

let run = 0;
describe.each([
  ["in process", async (o: ChatGuardOptions) => new ChatGuard(o)],
  ["on Redis", async (o: ChatGuardOptions) => new ChatGuard({ ...o, redis: await link() })],
])("the blocked-chat guard %s", (_where, make) => {
  const chat = () => `-100${(run += 1)}`;

  it("stops calling a chat after its 403, says why to the poster, and calls it again once lifted", async () => {
    const id = chat();
    const guard = await make({ scope: `bot${run}` });
    const api = botApi(new Set([id]));
    expect((await send(guard, api.prev, id)).ok).toBe(false);
    const withheld = await send(guard, api.prev, id);
    expect(withheld).toEqual({ ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" });
    expect(api.received).toEqual([id]);
    expect(await guard.outcome(id)).toMatchObject({ kind: "gone" });

    guard.lift(id);
    expect(await guard.outcome(id)).toBeUndefined();
    await send(guard, api.prev, id);
    expect(api.received).toEqual([id, id]);
  });

  it("blocks a chat the bot was removed from without calling it", async () => {
    const id = chat();
    const guard = await make({ scope: `bot${run}` });
    const api = botApi(new Set());
    guard.block(id, "Forbidden: bot was kicked from the chat");
    expect((await send(guard, api.prev, id)).ok).toBe(false);
    expect(api.received).toEqual([]);
  });
});

describe("the blocked-chat guard's bound", () => {
  it("remembers at most `max` chats in process, forgetting the least recent first", async () => {
    const guard = new ChatGuard({ max: 3 });
    for (const id of ["1", "2", "3", "4", "5"]) guard.block(id, "Forbidden: bot was blocked by the user");
    expect(guard.size).toBe(3);
    expect(await guard.outcome("1")).toBeUndefined();
    expect(await guard.outcome("2")).toBeUndefined();
    expect(await guard.outcome("5")).toMatchObject({ kind: "gone" });
  });
});

describe("the blocked-chat guard shared through Redis", () => {
  it("withholds calls in every process once one learned the chat blocked the bot, and lets them through once one lifts it", async () => {
    const scope = "shared-bot";
    const [a, b] = [new ChatGuard({ scope, redis: await link() }), new ChatGuard({ scope, redis: await link() })];
    const api = botApi(new Set(["42"]));
    await send(a, api.prev, "42");
    expect((await send(b, api.prev, "42")).ok).toBe(false);
    expect(api.received).toEqual(["42"]);
    b.lift("42");
    expect(await a.outcome("42")).toBeUndefined();
  });

  it("keeps one bot's blocked chats apart from another bot's on the same Redis", async () => {
    const one = new ChatGuard({ scope: "bot-one", redis: await link() });
    const other = new ChatGuard({ scope: "bot-other", redis: await link() });
    one.block("7", "Forbidden: bot was blocked by the user");
    expect(await one.outcome("7")).toMatchObject({ kind: "gone" });
    expect(await other.outcome("7")).toBeUndefined();
  });

  it("answers from the process's own set while Redis is away, and from Redis again once it is back", async () => {
    const shared = await link();
    const guard = new ChatGuard({ scope: "outage-bot", redis: shared });
    const otherLink = await link();
    const elsewhere = new ChatGuard({ scope: "outage-bot", redis: otherLink });
    guard.block("9", "Forbidden: bot was blocked by the user");
    expect(await elsewhere.outcome("9")).toMatchObject({ kind: "gone" });

    await engine().stop();
    const api = botApi(new Set());
    expect((await send(guard, api.prev, "9")).ok).toBe(false);
    guard.block("10", "Forbidden: bot was blocked by the user");
    expect(await guard.outcome("10")).toMatchObject({ kind: "gone" });
    expect(api.received).toEqual([]);

    await engine().start();
    // Both processes' links must be back: the other one answers from its own set until it is.
    await shared.whenUp();
    await otherLink.whenUp();
    // The restarted Redis kept nothing (no persistence in tests): Redis's answer is the one given now.
    expect(await guard.outcome("9")).toBeUndefined();
    guard.block("11", "Forbidden: bot was blocked by the user");
    expect(await elsewhere.outcome("11")).toMatchObject({ kind: "gone" });
  });
});
