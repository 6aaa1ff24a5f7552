import { describe, expect, expectTypeOf, it } from "vitest";
import { MAX_MESSAGE_LENGTH, MAX_WORDS, bindArgs, bindNamed, commandCall, commandWords, splitWords, usage } from "../../src/core/args.js";
import { defineCommand, type Command, type CommandContext } from "../../src/core/command.js";
import { lbCommand } from "../../src/core/commands/lb.js";
import { isUserError } from "../../src/core/errors.js";
import { messages } from "../../src/i18n/index.js";

const holders: Command = {
  name: "holders",
  description: "Top holders",
  args: [
    { name: "token", description: "token", type: "token", required: true },
    { name: "n", description: "how many", type: "int", required: false, min: 1, max: 25 },
  ],
  examples: ["/holders pepe"],
  run: async () => ({ title: "", tone: "info", blocks: [], actions: [] }),
};
const price: Command = { ...holders, name: "price", args: [{ name: "tokens", description: "t", type: "token", required: true, variadic: true }] };
const top: Command = { ...holders, name: "top", args: [{ name: "topic", description: "t", type: "topic", required: true, choices: ["hot", "meme"] }] };
const token: Command = { ...holders, name: "token", args: [{ name: "token", description: "t", type: "token", required: true }] };

function userMessage(fn: () => unknown, locale = "en"): string {
  try {
    fn();
  } catch (e) {
    if (isUserError(e)) return messages().translator(locale).t(e.key, e.args);
    throw e;
  }
  throw new Error("expected a UserError");
}

describe("commandCall and commandWords", () => {
  it("reads the command name in lowercase without the bot's @name, and keeps the rest as text", () => {
    expect(commandCall("/Price@chainpulse_bot pepe  wif")).toEqual({ name: "price", args: "pepe  wif" });
    expect(commandWords("pepe  wif")).toEqual(["pepe", "wif"]);
  });

  it("reads full-width letters as the ASCII they stand for", () => {
    expect(commandCall("／ｐｒｉｃｅ　ｐｅｐｅ")).toEqual({ name: "price", args: "pepe" });
  });

  it("reads text without a leading / as no command", () => {
    expect(commandCall("pepe /price")).toBeUndefined();
  });

  it("groups quoted words, straight and curly", () => {
    expect(splitWords(`search "shiba inu" 'baby doge' “dog wif hat”`)).toEqual(["search", "shiba inu", "baby doge", "dog wif hat"]);
  });

  it("says so when a quote is not closed", () => {
    expect(userMessage(() => commandWords('"shiba'))).toMatch(/quote is not closed/);
  });

  it("refuses an over-long message with a sentence naming the limit", () => {
    expect(userMessage(() => commandWords("a".repeat(MAX_MESSAGE_LENGTH + 1)))).toMatch(/too long.*at most 1000/);
  });

  it("refuses null bytes and control characters", () => {
    expect(userMessage(() => commandWords("pe\u0000pe"))).toMatch(/control characters/);
    expect(userMessage(() => commandWords("\u001b[31mpepe"))).toMatch(/control characters/);
  });

  it("refuses hundreds of arguments", () => {
    expect(userMessage(() => commandWords("x ".repeat(300)))).toMatch(`at most ${MAX_WORDS}`);
  });
});

describe("bindArgs", () => {
  it("binds required and optional arguments by position", () => {
    expect(bindArgs(holders, ["pepe", "20"])).toEqual({ token: "pepe", n: "20" });
    expect(bindArgs(holders, ["pepe"])).toEqual({ token: "pepe" });
  });

  it("names the missing argument and shows an example", () => {
    expect(userMessage(() => bindArgs(holders, []))).toBe("/holders needs a token. Usage: /holders <token> [n], e.g. /holders pepe");
  });

  it("asks for at least one token when a token list is empty, in plain English", () => {
    expect(userMessage(() => bindArgs(price, []))).toMatch(/^\/price needs at least one token\. Usage: \/price <tokens …>/);
    // In Chinese the kind of word is said in Chinese, never as "token".
    expect(userMessage(() => bindArgs(price, []), "zh")).toMatch(/^\/price 至少需要一个代币。/u);
  });

  it("checks int bounds and form", () => {
    expect(userMessage(() => bindArgs(holders, ["pepe", "500"]))).toBe("n must be between 1 and 25.");
    expect(userMessage(() => bindArgs(holders, ["pepe", "ten"]))).toMatch(/n must be a whole number/);
  });

  it("checks choices and lowercases them", () => {
    expect(bindArgs(top, ["MEME"])).toEqual({ topic: "meme" });
    expect(userMessage(() => bindArgs(top, ["fish"]))).toMatch(/choose one of: hot, meme/);
  });

  it("collects a variadic argument as a list", () => {
    expect(bindArgs(price, ["pepe", "wif", "bonk"])).toEqual({ tokens: ["pepe", "wif", "bonk"] });
  });

  it("joins the extra words of a last token argument", () => {
    expect(bindArgs(token, ["shiba", "inu"])).toEqual({ token: "shiba inu" });
  });

  it("refuses extra words elsewhere with the usage", () => {
    expect(userMessage(() => bindArgs(top, ["hot", "now"]))).toMatch(/fewer words.*\/top <topic>/);
  });

  it("gives as the hint's example the first one with arguments, not the bare command", () => {
    const lb: Command = { ...holders, name: "lb", args: [{ name: "period", description: "p", type: "text", required: false, choices: ["1d", "7d"] }], examples: ["/lb", "/lb 7d"] };
    expect(userMessage(() => bindArgs(lb, ["7d", "abc"]))).toMatch(/, e\.g\. \/lb 7d$/);
  });

  it("reads a lone number as the int after an optional argument of choices: /lb 25", () => {
    expect(bindArgs(lbCommand, ["25"])).toEqual({ rows: "25" });
    expect(bindArgs(lbCommand, ["all", "25"])).toEqual({ period: "all", rows: "25" });
    expect(userMessage(() => bindArgs(lbCommand, ["100"]))).toBe("rows must be between 1 and 25.");
    expect(userMessage(() => bindArgs(lbCommand, ["13x"]))).toBe(`"13x" is not a period I know; choose one of: 1d, 7d, 30d, all.`);
  });

  it("writes usage with optional and variadic markers", () => {
    expect(usage(price)).toBe("/price <tokens …>");
    expect(usage(holders)).toBe("/holders <token> [n]");
  });
});

describe("bindNamed", () => {
  const listed: Command = {
    ...holders,
    name: "listed",
    args: [
      { name: "chain", description: "chain", type: "chain", required: false, choices: ["eth", "bsc"] },
      { name: "page", description: "page", type: "int", required: false, min: 1, max: 10 },
    ],
  };
  const schedule: Command = { ...holders, name: "every", args: [{ name: "cron", description: "when", type: "text", required: true, variadic: true }] };

  it("binds each value to the argument it names, a later one without an earlier one", () => {
    expect(bindNamed(listed, new Map([["page", "3"]]))).toEqual({ page: "3" });
    expect(bindNamed(listed, new Map([["chain", "BSC"], ["page", "2"]]))).toEqual({ chain: "bsc", page: "2" });
  });

  it("keeps a token with its chain as one value, and splits a list on spaces only", () => {
    expect(bindNamed(holders, new Map([["token", "pepe bsc"], ["n", "5"]]))).toEqual({ token: "pepe bsc", n: "5" });
    expect(bindNamed(price, new Map([["tokens", "pepe bsc,  wif"]]))).toEqual({ tokens: ["pepe", "bsc,", "wif"] });
    expect(bindNamed(schedule, new Map([["cron", "0 9,21 * * *"]]))).toEqual({ cron: ["0", "9,21", "*", "*", "*"] });
  });

  it("checks each value as a typed word is checked", () => {
    expect(userMessage(() => bindNamed(listed, new Map([["page", "11"]])))).toMatch(/page/);
    expect(userMessage(() => bindNamed(holders, new Map([["n", "5"]])))).toMatch(/token/);
    expect(userMessage(() => bindNamed(price, new Map([["tokens", "  "]])))).toMatch(/token/);
    expect(userMessage(() => bindNamed(top, new Map([["topic", "constructor"]])))).toMatch(/hot, meme/);
  });

  it("refuses a name the command has no argument for", () => {
    expect(() => bindNamed(listed, new Map([["constructor", "x"]]))).toThrow(/no argument "constructor"/);
  });
});

describe("defineCommand", () => {
  it("hands run its arguments typed from the command's own declaration, as bindArgs bound them", async () => {
    const seen: unknown[] = [];
    const cmd = defineCommand({
      name: "typed",
      description: "typed arguments",
      examples: ["/typed hot 2 a b"],
      args: [
        { name: "topic", description: "t", type: "topic", required: true, choices: ["hot", "meme"] },
        { name: "n", description: "n", type: "int", required: false },
        { name: "rest", description: "r", type: "text", required: false, variadic: true },
      ],
      async run(_ctx, args) {
        expectTypeOf(args.topic).toEqualTypeOf<"hot" | "meme">();
        expectTypeOf(args.n).toEqualTypeOf<string | undefined>();
        expectTypeOf(args.rest).toEqualTypeOf<string[] | undefined>();
        seen.push(args);
        return { title: "", tone: "info", blocks: [], actions: [] };
      },
    });
    await cmd.run({} as CommandContext, bindArgs(cmd, ["HOT", "2", "a", "b"]));
    expect(seen).toEqual([{ topic: "hot", n: "2", rest: ["a", "b"] }]);
  });
});
