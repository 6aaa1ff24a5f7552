/**
 * The real core on the sandbox market behind the Telegram adapter (see `../real-core.ts`),
 * with the sandbox at hand for faults.
 */
import type { SandboxOptions, Sandbox } from "../../../src/sandbox/index.js";
import type { FakeTelegramOptions } from "../../fakes/telegram-api.js";
import type { RealCoreOptions } from "../real-core.js";
import { type Harness, startHarness } from "./harness.js";

export interface SandboxHarness extends Harness {
  sandbox: Sandbox;
}

export async function startSandboxHarness(
  opts: { sandbox?: Partial<SandboxOptions>; fake?: FakeTelegramOptions; budget?: RealCoreOptions["budget"] } = {},
): Promise<SandboxHarness> {
  const h = await startHarness({
    real: { ...(opts.sandbox ? { sandbox: opts.sandbox } : {}), ...(opts.budget ? { budget: opts.budget } : {}) },
    ...(opts.fake ? { fake: opts.fake } : {}),
  });
  if (h.real === undefined) throw new Error("the harness did not start the real core");
  return { ...h, sandbox: h.real.sandbox };
}
