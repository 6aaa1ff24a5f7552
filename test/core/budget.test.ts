import { describe, expect, it } from "vitest";
import { createBudget, type BudgetOptions } from "../../src/core/budget.js";
import { useRedis } from "../engines/redis.js";

const { link: shared } = useRedis();

/** Each test's budgets count under their own user and chat names: the Redis ones share a server. */
let run = 0;

describe.each([
  ["in process", async (o: BudgetOptions) => createBudget(o)],
  ["on Redis", async (o: BudgetOptions) => createBudget({ ...o, redis: await shared() })],
])("the command budget %s", (_where, make) => {
  const names = () => {
    run += 1;
    return { u1: `u1-${run}`, u2: `u2-${run}`, c1: `c1-${run}`, c2: `c2-${run}` };
  };

  it("lets a user run 10 commands a minute, warns once, then stays silent until the next minute", async () => {
    const { u1, u2, c1 } = names();
    const budget = await make({ perUser: 10, perChat: 30, windowMs: 60_000 });
    const t0 = 1_800_000_000_000;
    for (let i = 0; i < 10; i++) expect((await budget.take(u1, c1, t0 + i)).kind).toBe("ok");
    expect(await budget.take(u1, c1, t0 + 20_000)).toEqual({ kind: "warn", scope: "user", retryInMs: 40_000 });
    expect((await budget.take(u1, c1, t0 + 30_000)).kind).toBe("silent");
    expect((await budget.take(u2, c1, t0 + 30_000)).kind).toBe("ok");
    expect((await budget.take(u1, c1, t0 + 60_001)).kind).toBe("ok");
  });

  it("limits a whole chat across its users, without charging a refused command to its user", async () => {
    const { u1, u2, c1, c2 } = names();
    const budget = await make({ perUser: 2, perChat: 3 });
    const t = 1_800_000_000_000;
    for (const u of [u1, u2, u2]) expect((await budget.take(u, c1, t)).kind).toBe("ok");
    expect(await budget.take(u1, c1, t + 1)).toMatchObject({ kind: "warn", scope: "chat" });
    expect((await budget.take(u1, c1, t + 2)).kind).toBe("silent");
    // u1 ran one command; the two the chat refused left it room for one more elsewhere.
    expect((await budget.take(u1, c2, t + 3)).kind).toBe("ok");
    expect((await budget.take(u1, c2, t + 4)).kind).toBe("warn");
  });

  it("keeps the one warning for the next command when a refusal is told to nobody (quiet)", async () => {
    const { u1, u2, c1, c2 } = names();
    const t = 1_800_000_000_000;
    const users = await make({ perUser: 2, perChat: 30 });
    for (const at of [t, t + 1]) expect((await users.take(u1, c1, at)).kind).toBe("ok");
    for (const at of [t + 2, t + 3]) expect((await users.take(u1, c1, at, undefined, true)).kind).not.toBe("ok");
    expect(await users.take(u1, c1, t + 4)).toMatchObject({ kind: "warn", scope: "user" });
    const chats = await make({ perUser: 10, perChat: 2 });
    for (const at of [t, t + 1]) expect((await chats.take(u2, c2, at)).kind).toBe("ok");
    for (const at of [t + 2, t + 3]) expect((await chats.take(u2, c2, at, undefined, true)).kind).not.toBe("ok");
    expect(await chats.take(u2, c2, t + 4)).toMatchObject({ kind: "warn", scope: "chat" });
  });

  it("warns again once a new window gave room and the user ran out a second time", async () => {
    const { u1, c1 } = names();
    const budget = await make({ perUser: 2, windowMs: 100 });
    const t = 1_800_000_000_000;
    await budget.take(u1, c1, t);
    await budget.take(u1, c1, t + 50);
    expect((await budget.take(u1, c1, t + 60)).kind).toBe("warn");
    expect((await budget.take(u1, c1, t + 101)).kind).toBe("ok");
    expect((await budget.take(u1, c1, t + 102)).kind).toBe("ok");
    expect((await budget.take(u1, c1, t + 103)).kind).toBe("warn");
  });

  it("holds a Telegram group to what Telegram takes (19 by default, or perTelegramGroup), warning once", async () => {
    const { c1, c2 } = names();
    const budget = await make({ perUser: 100, perChat: 30 });
    const t = 1_800_000_000_000;
    for (let i = 0; i < 19; i++) expect((await budget.take(`u${i}`, c1, t + i, true)).kind).toBe("ok");
    expect(await budget.take("u-late", c1, t + 20, true)).toMatchObject({ kind: "warn", scope: "chat" });
    expect((await budget.take("u-later", c1, t + 21, true)).kind).toBe("silent");
    const { c1: c3 } = names();
    const five = await make({ perUser: 100, perChat: 30, perTelegramGroup: 5 });
    for (let i = 0; i < 5; i++) expect((await five.take(`u${i}`, c3, t + i, true)).kind).toBe("ok");
    expect((await five.take("u-late", c3, t + 6, true)).kind).toBe("warn");
    // Another chat without the limit keeps the whole budget.
    for (let i = 0; i < 30; i++) expect((await budget.take(`u${i}`, c2, t + i)).kind).toBe("ok");
    expect((await budget.take("u-late", c2, t + 31)).kind).toBe("warn");
  });

  it("keeps one user's key from reading as another's, whatever the ids contain", async () => {
    const { u1, c1 } = names();
    const budget = await make({ perUser: 1, perChat: 100 });
    const t = 1_800_000_000_000;
    expect((await budget.take(`${u1}:x`, c1, t)).kind).toBe("ok");
    expect((await budget.take(u1, `x:${c1}`, t)).kind).toBe("ok");
    expect((await budget.take("__proto__", c1, t)).kind).toBe("ok");
    expect((await budget.take("__proto__", c1, t)).kind).toBe("warn");
  });
});

describe("the command budget on a shared Redis", () => {
  it("counts a user's commands across processes: the second process sees what the first took", async () => {
    const first = createBudget({ perUser: 3, redis: await shared() });
    const second = createBudget({ perUser: 3, redis: await shared() });
    const t = 1_800_000_000_000;
    run += 1;
    const user = `across-${run}`;
    expect((await first.take(user, "c", t)).kind).toBe("ok");
    expect((await second.take(user, "c", t)).kind).toBe("ok");
    expect((await first.take(user, "c", t)).kind).toBe("ok");
    expect(await second.take(user, "c", t + 1)).toMatchObject({ kind: "warn", scope: "user" });
    expect((await first.take(user, "c", t + 2)).kind).toBe("silent");
  });
});
