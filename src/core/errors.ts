/**
 * The failures a person can fix. `UserError` is defined beside the message type
 * (`i18n/message.ts`) so the translator can build one without importing the core; the core's
 * code names it from here.
 */
import { UserError } from "../i18n/message.js";

export { UserError };

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}
