/**
 * What both end-to-end digest tests share: the clocked world (sandbox market, real client, a
 * SQLite file, all on one hand-moved clock) whose core has the digest commands, which write
 * each post. Each test adds its platform's adapter and the poster.
 */
import { digestCommands } from "../../src/digest/commands.js";
import { startClockedWorld, type ClockedWorld } from "../core/clocked-world.js";

export { SOURCE } from "../core/clocked-world.js";

export type DigestWorld = ClockedWorld;

export function startDigestWorld(start: number): Promise<DigestWorld> {
  return startClockedWorld({ start, tmpPrefix: "cp-digest-", core: { extraCommands: digestCommands({ maxPerChat: 10, minIntervalMinutes: 15 }) } });
}
