/** A UserError names its message; the one catch site writes it in the reader's language, however the error travelled. */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { CachedMarket } from "../../src/cache/types.js";
import { isUserError, UserError } from "../../src/core/errors.js";
import { failureReply } from "../../src/core/failure.js";
import { parseTokenInput, resolveToken } from "../../src/core/resolve/index.js";
import { messages } from "../../src/i18n/index.js";
import { createFakeMarket } from "../cache/fake-market.js";
import { groupChat, testCore } from "./helpers.js";

const zh = messages().translator("zh");
const en = messages().translator("en");
const log = pino({ level: "silent" });
const ALMOST = "0x6982508145454ce325ddbe47a25d4ec3d231193";

async function thrown(p: Promise<unknown>): Promise<unknown> {
  return p.then(() => undefined, (e: unknown) => e);
}

describe("a UserError in the reader's language", () => {
  it("writes a copied malformed input's reason in Chinese", async () => {
    const copy = { ...parseTokenInput(ALMOST) };
    // The input is refused before any lookup, so the market is never asked.
    const error = await thrown(resolveToken({} as CachedMarket, copy));
    expect(isUserError(error)).toBe(true);
    const reply = failureReply(error, { log, commandText: `/token ${ALMOST}`, i18n: zh });
    expect(reply.title).toBe("这看起来像 EVM 地址，但它有 39 个十六进制数字，而不是 40 个。");
  });

  it("writes a copied error in Chinese: its own fields are what it says", () => {
    const error = new UserError("address-evm-length", { count: 39 });
    const copy = Object.assign(Object.create(UserError.prototype) as UserError, error);
    const title = failureReply(copy, { log, commandText: "/x", i18n: zh }).title;
    expect(title).toBe("这看起来像 EVM 地址，但它有 39 个十六进制数字，而不是 40 个。");
    expect(title).not.toBe(en.t("address-evm-length", { count: 39 }));
  });

  it("answers an almost-address in Chinese to a Chinese reader", async () => {
    const { core } = await testCore(createFakeMarket().api);
    const chat = { ...groupChat(), isPrivate: true, userLanguage: "zh-hans" };
    const reply = await core.handleText(chat, `/token ${ALMOST}`);
    expect(reply).toMatchObject({ title: "这看起来像 EVM 地址，但它有 39 个十六进制数字，而不是 40 个。", error: "user" });
  });

  it("names an argument in Chinese as the usage line shows it, a placeholder, not an English word in the sentence", async () => {
    const { core } = await testCore(createFakeMarket().api);
    const chat = { ...groupChat(), isPrivate: true, userLanguage: "zh-hans" };
    expect((await core.handleText(chat, "/rearm"))?.title).toMatch(/^\/rearm 缺少参数 <alert>。用法：\/rearm <alert>/);
    expect((await core.handleText(chat, "/holders pepe 99"))?.title).toBe("参数 <n> 必须在 1 到 25 之间。");
  });
});
