/**
 * A platform that failed on its side (5xx) or could not be reached, as both adapters read it
 * for a scheduled post: a `retry` outcome, so the post is owed and tried again until its
 * deadline rather than recorded failed at the first 502.
 */

/** How long the platform's queue waits before it sends such a post again. */
export const UNREACHABLE_RETRY_MS = 5_000;

/** The first string `code` along an error's causes that `pattern` accepts (ECONNRESET, UND_ERR_SOCKET…), if any. */
export function causeCode(err: unknown, pattern: RegExp): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && pattern.test(code)) return code;
  }
  return undefined;
}
