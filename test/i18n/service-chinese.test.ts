import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { CONSOLE_CHAT } from "../../src/adapters/console/run.js";
import { buildCore, type BuiltCore } from "../../src/app/build-core.js";
import { loadConfig } from "../../src/config.js";
import type { Reply } from "../../src/core/reply.js";

/** Every string of a reply a reader sees. */
function words(reply: Reply | null): string {
  if (reply === null) return "";
  return [
    reply.title,
    ...reply.blocks.flatMap((b) => (b.kind === "text" ? [b.text] : b.kind === "fields" ? b.fields.flatMap((f) => [f.label, f.value]) : [...b.columns, ...b.rows.flat()])),
    ...reply.actions.flat().map((a) => a.label),
  ].join("\n");
}

/** The service's own Chinese, used where it exists: rank topic names and the risk text. */
describe("the market service's own Chinese", () => {
  let built: BuiltCore;
  const zh = { ...CONSOLE_CHAT, userLanguage: "zh" };

  beforeAll(async () => {
    built = await buildCore(loadConfig({ DATABASE_PATH: ":memory:" }), { log: pino({ level: "silent" }) });
  });
  afterAll(() => built.close());

  it("names the ranked lists by the service's name_zh in /topics and /top", async () => {
    const topics = (await built.market.rankTopics()).data;
    const meme = topics.find((t) => t.id === "meme");
    expect(meme?.name_zh).toBeTruthy();
    const listed = words(await built.core.handleText(zh, "/topics"));
    for (const t of topics) expect(listed).toContain(t.name_zh);
    expect((await built.core.handleText(zh, "/top meme"))?.title).toBe(`排行榜：${meme?.name_zh}`);
    // English keeps the list's id in /top, as typed.
    expect((await built.core.handleText(CONSOLE_CHAT, "/top meme"))?.title).toBe("Top: meme");
  });

  it("shows the token record's zh-cn risk text on a Chinese token card, and not on an English one", async () => {
    const detail = (await built.market.tokenDetail("0x6982508145454ce325ddbe47a25d4ec3d2311933-eth")).data.token;
    const said = new Map(Object.entries(JSON.parse(detail.risk_info ?? "{}") as Record<string, string>)).get("zh-cn");
    // The sandbox writes it in Chinese, as the service does for its Chinese readers.
    expect(said).toMatch(/\p{Script=Han}/u);
    expect(words(await built.core.handleText(zh, "/token 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth"))).toContain(`服务的说明：${said}`);
    expect(words(await built.core.handleText(CONSOLE_CHAT, "/token 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth"))).not.toContain(String(said));
  });
});
