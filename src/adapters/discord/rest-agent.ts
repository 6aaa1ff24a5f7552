/**
 * An HTTP agent for discord.js's REST client from the undici that @discordjs/rest itself
 * bundles (6.x). The project's market client uses undici 7; both versions claim the same
 * process-wide default dispatcher, and whichever loads first serves the other's requests.
 * undici 7 cannot send undici 6's multipart bodies ("action is not a function"), so without
 * an agent of its own every Discord reply that carries a picture failed.
 */
import { createRequire } from "node:module";
import type { RESTOptions } from "discord.js";

const restRequire = createRequire(createRequire(import.meta.url).resolve("@discordjs/rest"));

/** A keep-alive agent of the undici version @discordjs/rest was built with. */
export function discordRestAgent(): NonNullable<RESTOptions["agent"]> {
  const { Agent } = restRequire("undici") as { Agent: new () => NonNullable<RESTOptions["agent"]> };
  return new Agent();
}
