/** A failure the user should read as is: unknown token, bad chain, not an admin. */
export class UserError extends Error {
  override readonly name = "UserError";
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}
