/**
 * Commands for driving the adapter: one per behaviour under test (variadic tokens, choices and
 * integers, buttons that edit in place or post, a slow command the test releases, an image,
 * a user error, a crash).
 */
import type { Command } from "../../../src/core/command.js";
import { UserError } from "../../../src/core/errors.js";
import type { Reply } from "../../../src/core/reply.js";
import { deferred } from "./harness.js";

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  "iVBORw0KGBgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export const ADDRESS = "0x6982508145454ce325ddbe47a25d4ec3d2311933";

export interface Gate {
  /** Lets the waiting `/slow` (or slow `/token`) run answer. */
  release(): void;
}

export function testCommands(): { commands: Command[]; gate(): Gate } {
  let runs = 0;
  let gate = deferred();
  const slowToken = "slowpoke";

  const price: Command = {
    name: "price",
    description: "Price of one or more tokens",
    examples: ["/price pepe wif"],
    args: [{ name: "tokens", description: "symbols, names or addresses", type: "token", required: true, variadic: true }],
    run: async (_ctx, args) => {
      runs += 1;
      const tokens = args.tokens as string[];
      const first = tokens[0] ?? "";
      return {
        title: `Price: ${tokens.join(", ")}`,
        url: "https://example.com/price",
        tone: "good",
        blocks: [{ kind: "fields", fields: [{ label: "Run", value: String(runs) }, ...tokens.map((t) => ({ label: t, value: "$1.00" }))] }],
        actions: [
          [
            { kind: "command", label: "Refresh", command: "price", args: tokens, edit: true },
            { kind: "command", label: "Open card", command: "token", args: [first], edit: false },
            { kind: "url", label: "Website", url: "https://example.com/pepe" },
          ],
        ],
        footer: { source: "test data", asOf: Date.now() },
      };
    },
  };

  const token: Command = {
    name: "token",
    description: "The token card",
    examples: ["/token pepe"],
    args: [{ name: "token", description: "symbol, name or address", type: "token", required: true }],
    run: async (_ctx, args) => {
      const t = String(args.token);
      if (t === "nope" || t === slowToken) {
        if (t === slowToken) await gate.promise;
        throw new UserError(`I don't know a token called ${t}.`);
      }
      return { title: `Card: ${t}`, tone: "info", blocks: [{ kind: "text", text: `The card of ${t}.` }], actions: [] };
    },
  };

  const trending: Command = {
    name: "trending",
    description: "Trending tokens of a chain",
    examples: ["/trending eth 2"],
    args: [
      { name: "chain", description: "chain", type: "chain", required: false, choices: ["eth", "bsc", "solana"] },
      { name: "page", description: "page", type: "int", required: false, min: 1, max: 10 },
    ],
    run: async (_ctx, args): Promise<Reply> => {
      const page = Number(args.page ?? "1");
      return {
        title: `Trending on ${String(args.chain ?? "eth")}, page ${page}`,
        tone: "info",
        blocks: [{ kind: "table", columns: ["#", "token"], rows: [[String(page), "PEPE"]], align: ["right", "left"] }],
        actions: [[{ kind: "command", label: "Next", command: "trending", args: [String(args.chain ?? "eth"), String(page + 1)], edit: true }]],
      };
    },
  };

  const slow: Command = {
    name: "slow",
    description: "Waits for the test to release it",
    examples: ["/slow"],
    args: [],
    run: async () => {
      await gate.promise;
      runs += 1;
      return {
        title: "Finally",
        tone: "info",
        blocks: [{ kind: "text", text: `done, run ${runs}` }],
        actions: [[{ kind: "command", label: "Again", command: "slow", args: [], edit: true }]],
      };
    },
  };

  const chart: Command = {
    name: "chart",
    description: "A chart",
    examples: ["/chart pepe"],
    args: [{ name: "token", description: "token", type: "token", required: true }],
    run: async () => ({
      title: "PEPE chart",
      tone: "info",
      blocks: [],
      image: { png: PNG, alt: "candles", filename: "chart.png" },
      actions: [],
    }),
  };

  const boom: Command = {
    name: "boom",
    description: "Crashes",
    examples: ["/boom"],
    args: [],
    run: async () => {
      throw new Error("kaboom");
    },
  };

  return {
    commands: [price, token, trending, slow, chart, boom],
    gate: () => ({
      release: () => {
        gate.resolve();
        gate = deferred();
      },
    }),
  };
}

/** The token card `detect` answers for an address. */
export function detectAddress(text: string): Reply | null {
  if (!text.includes(ADDRESS)) return null;
  return { title: "Card: PEPE", tone: "info", blocks: [{ kind: "text", text: `found ${ADDRESS}` }], actions: [] };
}
