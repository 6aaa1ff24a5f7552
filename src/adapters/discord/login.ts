/** What a failed login tells the operator: one line naming the fix, the token never shown. */
import { GatewayCloseCodes } from "discord.js";
import { redactSecrets } from "../../secrets.js";

/** What the operator reads when Discord refuses the privileged intent (gateway close 4014). */
export const DISALLOWED_INTENTS =
  "Discord refused the Message Content intent (gateway close 4014): enable it for the bot in the Discord developer portal (Bot → Privileged Gateway Intents), or set DISCORD_MESSAGE_CONTENT=false.";

export function loginFailure(err: unknown, token: string, apiRoot: string, closeCode: number | undefined): Error {
  const code = (err as { code?: unknown }).code;
  const status = (err as { status?: unknown }).status;
  if (code === "TokenInvalid" || status === 401) {
    return new Error("Discord refused the bot token (401 Unauthorized); check DISCORD_BOT_TOKEN.");
  }
  // @discordjs/ws rejects the login with a bare "Used disallowed intents" that names no fix.
  if (closeCode === GatewayCloseCodes.DisallowedIntents || (err instanceof Error && /disallowed intents/i.test(err.message))) {
    return new Error(DISALLOWED_INTENTS);
  }
  const detail = redactSecrets(err instanceof Error ? err.message : String(err), [token]);
  return new Error(`Could not connect to Discord at ${apiRoot}: ${detail}`);
}
