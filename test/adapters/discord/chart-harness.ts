/**
 * What the Discord picture tests (/chart, the token card's chart) share: the harness's real core
 * on the sandbox with the real worker renderer, the real adapter logged in to the fake, which
 * records uploads and checks that every `attachment://` reference names a file sent with the
 * message, and a fresh user and channel per interaction so the command budget never speaks.
 */
import { createChartRenderer } from "../../../src/chart/index.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import type { FakeMessage, Settled } from "../../fakes/discord-api.js";
import { startHarness, type Harness } from "./harness.js";

export interface ChartHarness {
  h: Harness;
  sandbox: Sandbox;
  /** A user and channel no interaction used before. */
  place(): { user: { id: string; username: string }; channelId: string };
  close(): Promise<void>;
}

export async function startChartHarness(): Promise<ChartHarness> {
  const charts = createChartRenderer();
  const h = await startHarness({ real: { charts }, adapter: { ackWithinMs: 2000 } });
  let n = 0n;
  return {
    h,
    sandbox: h.real!.sandbox,
    place() {
      n += 1n;
      return { user: { id: String(710000000000000000n + n), username: `u${n}` }, channelId: String(810000000000000000n + n) };
    },
    async close() {
      await h.close();
      await charts.close();
    },
  };
}

/** The message an interaction settled with; fails on any other outcome. */
export function message(settled: Settled): FakeMessage {
  if (settled.kind !== "message") throw new Error(`expected a message, got ${settled.kind}`);
  return settled.message;
}
