import type { LocalMessage } from "../i18n/translator.js";

/**
 * A failure the user should read as is: unknown token, bad chain, not an admin. `localized`
 * names the message it says, so it can be written again in the caller's language (a Discord
 * answer only the caller sees); make one with `ctx.i18n.fail(key, args)`.
 */
export class UserError extends Error {
  override readonly name = "UserError";

  constructor(
    message: string,
    readonly localized?: LocalMessage,
  ) {
    super(message);
  }
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}
