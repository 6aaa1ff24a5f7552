/**
 * The token card with its 24 h chart in Discord: the real core on the sandbox with the real
 * worker renderer, the real adapter logged in to the fake, which checks that every
 * `attachment://` reference names a file sent with the message.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OptionType } from "../../fakes/discord-api.js";
import { message, startChartHarness, type ChartHarness } from "./chart-harness.js";

interface Embed {
  title?: string;
  image?: { url: string };
}

let w: ChartHarness;

beforeAll(async () => {
  w = await startChartHarness();
});
afterAll(async () => {
  await w.close();
});
afterEach(() => {
  expect(w.h.fake.violations).toEqual([]);
});

describe("the token card in Discord", () => {
  it("shows the 24h chart as the embed's image, uploaded with the answer", async () => {
    const pepe = w.sandbox.market.bySymbol("pepe")[0]!;
    const settled = await w.h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: pepe.id }], ...w.place() }).settled();
    const embed = message(settled).embeds[0] as Embed;
    expect(embed.title?.replace(/\\(.)/g, "$1")).toBe("Pepe (PEPE) · eth");
    expect(embed.image?.url).toBe("attachment://card-chart.png");
    expect(settled.request.files).toEqual([expect.objectContaining({ name: "card-chart.png", type: "image/png" })]);
    expect(settled.request.files[0]!.size).toBeGreaterThan(10_000);
  });
});
