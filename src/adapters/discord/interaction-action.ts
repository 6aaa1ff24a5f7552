/**
 * An interaction that came over HTTP, handed to discord.js as if the gateway had brought it.
 * discord.js has no public way to turn a raw interaction into its objects and its
 * `interactionCreate` event; its own gateway path does it in `client.actions.InteractionCreate`,
 * a private API. It is read here alone, checked when the adapter is built (a missing one stops
 * the start with a sentence, not a crash at the first interaction), and pinned by
 * `test/adapters/discord/interaction-action.test.ts` to the discord.js version it was read
 * against, so an upgrade fails that test until the path is checked again.
 */
import { version, type Client } from "discord.js";

/** The discord.js version whose private interaction path this module was checked against. */
export const CHECKED_DISCORD_JS = "14.28.1";

interface PrivateActions {
  actions?: { InteractionCreate?: { handle?: unknown } };
}

/** Emits `interactionCreate` on `client` for a raw interaction payload, as the gateway path does. */
export function interactionDispatcher(client: Client): (payload: Record<string, unknown>) => void {
  const action = (client as unknown as PrivateActions).actions?.InteractionCreate;
  const handle = action?.handle;
  if (typeof handle !== "function") {
    throw new Error(
      `discord.js ${version} has no client.actions.InteractionCreate (checked against ${CHECKED_DISCORD_JS}): HTTP interactions cannot be served; unset DISCORD_PUBLIC_KEY or pin discord.js to ${CHECKED_DISCORD_JS}.`,
    );
  }
  return (payload) => {
    handle.call(action, payload);
  };
}
