import { describe, expect, it } from "vitest";
import { formatMultiple, multipleAsShown } from "../../src/calls/names.js";
import { rankCallers } from "../../src/calls/ranking.js";
import type { Call } from "../../src/store/types.js";

let ids = 0;
const call = (userId: string, high: number, calledAt = 1_000): Call => ({
  id: (ids += 1), platform: "telegram", boardId: "-100", tokenId: `t${ids}-eth`, symbol: `T${ids}`, chain: "eth",
  userId, userName: userId, calledAt, price: "1", high: String(high),
});

describe("a board's ranking", () => {
  it("orders rows that read the same hit rate and median by more calls, not by a difference the board does not show", () => {
    const board = rankCallers([
      call("one", 1.04),
      ...[1.01, 1.02, 1.0, 1.03].map((h) => call("four", h, 2_000)),
    ]);
    expect(board.map((r) => [r.userId, formatMultiple(r.median)])).toEqual([["four", "1.0×"], ["one", "1.0×"]]);
  });

  it("still ranks a median the board shows higher first, and a hit rate before the median", () => {
    const board = rankCallers([
      ...[1.1, 1.1, 1.1].map((h) => call("many", h)),
      call("higher", 1.2),
      ...[2.5, 1.0].map((h) => call("hitter", h)),
    ]);
    expect(board.map((r) => r.userId)).toEqual(["hitter", "higher", "many"]);
  });

  it("reads a multiple as it is written: cut to its decimals", () => {
    for (const x of [0.519, 1.96, 2.3, 9.99, 31.7, 1240.4]) expect(multipleAsShown(x), String(x)).toBe(Number(formatMultiple(x).replace(/[×,]/g, "")));
  });
});
