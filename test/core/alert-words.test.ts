/** An alert's figures in words, over the sandbox: the digits grouped as every other figure the bot writes. */
import { describe, expect, it } from "vitest";
import { sandboxPerFile } from "./sandbox-world.js";

const the = sandboxPerFile();

describe("an alert's distance and rule", () => {
  it("groups the thousands of a distance to go, on the answer and in /alerts", async () => {
    const set = await the.bot.say("/alert wif above 30");
    expect(set).toMatch(/\b\d,\d{3}\.\d% to go/);
    const list = await the.bot.say("/alerts");
    expect(list).toMatch(/\b\d,\d{3}\.\d%/);
    expect(`${set}\n${list}`).not.toMatch(/\d{4}\.\d%/);
  });

  it("groups the thousands of a move's percent", async () => {
    await the.bot.say("/alert wif move 1000%");
    expect(await the.bot.say("/alerts")).toContain("moves 1,000% either way");
  });
});
