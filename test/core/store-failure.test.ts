import pino from "pino";
import { describe, expect, it } from "vitest";
import { storeFailureReply } from "../../src/core/store-failure.js";
import { messages } from "../../src/i18n/index.js";
import { applySettingsPatch } from "../../src/store/chat-settings.js";
import { StoreError } from "../../src/store/errors.js";

function refusal(patch: Parameters<typeof applySettingsPatch>[1]): StoreError {
  try {
    applySettingsPatch({ timezone: "UTC" }, patch);
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error("the patch was not refused");
}

const log = pino({ level: "silent" });
const textOf = (error: StoreError, locale: string): string => {
  const reply = storeFailureReply(error, log, "/settings", messages().translator(locale));
  return reply.title;
};

describe("a value the store refuses", () => {
  it("is said in the chat's language, naming what was typed", () => {
    const zone = refusal({ timezone: "Mars/Olympus_Mons" });
    expect(textOf(zone, "en")).toBe('"Mars/Olympus_Mons" is not a time zone I know; use a name like Europe/Berlin or UTC.');
    expect(textOf(zone, "zh")).toBe("我不认识时区“Mars/Olympus_Mons”；请使用 Europe/Berlin 或 UTC 这样的名称。");
    expect(textOf(refusal({ defaultChain: "bsc eth" }), "zh")).toBe("默认链是一个链名，例如 bsc 或 solana。");
  });

  it("never shows the log's English detail of a refusal that names no message", () => {
    const bare = new StoreError("invalid", "constraint chats_language_check failed");
    expect(textOf(bare, "zh")).toBe("这个值无法保存；请检查后再试。");
  });
});
