import { describe, expect, it } from "vitest";
import { createBudget } from "../../src/core/budget.js";

describe("createBudget", () => {
  it("lets a user run 10 commands a minute, warns once, then stays silent until the window passes", () => {
    const budget = createBudget({ perUser: 10, perChat: 30, windowMs: 60_000 });
    const t0 = 1_000_000;
    for (let i = 0; i < 10; i++) expect(budget.take("u1", "c1", t0 + i).kind).toBe("ok");
    expect(budget.take("u1", "c1", t0 + 20)).toEqual({ kind: "warn", scope: "user", retryInMs: 59_980 });
    expect(budget.take("u1", "c1", t0 + 30).kind).toBe("silent");
    expect(budget.take("u2", "c1", t0 + 30).kind).toBe("ok");
    expect(budget.take("u1", "c1", t0 + 60_001).kind).toBe("ok");
  });

  it("limits a whole chat across its users", () => {
    const budget = createBudget({ perUser: 10, perChat: 3 });
    expect(["a", "b", "c"].map((u) => budget.take(u, "group", 0).kind)).toEqual(["ok", "ok", "ok"]);
    expect(budget.take("d", "group", 1)).toMatchObject({ kind: "warn", scope: "chat" });
    expect(budget.take("e", "group", 2).kind).toBe("silent");
    expect(budget.take("e", "other", 2).kind).toBe("ok");
  });

  it("warns again once the user had room and ran out a second time", () => {
    const budget = createBudget({ perUser: 2, windowMs: 100 });
    budget.take("u", "c", 0);
    budget.take("u", "c", 50);
    expect(budget.take("u", "c", 60).kind).toBe("warn");
    expect(budget.take("u", "c", 101).kind).toBe("ok");
    expect(budget.take("u", "c", 102).kind).toBe("warn");
  });
});
