/**
 * Who may read the operator's page: a request carrying `Authorization: Bearer <OPS_TOKEN>`,
 * or a browser holding the cookie the login form sets. The cookie holds a value derived from
 * the token, never the token; every comparison is of fixed-length digests in constant time.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const COOKIE = "chainpulse_ops";
/** The browser keeps the login for a day; the page refreshes itself far more often. */
const COOKIE_SECONDS = 86_400;

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();

export interface PageAuth {
  /** Whether `req` carries the token or the session cookie. */
  allowed(req: IncomingMessage): boolean;
  /** The Set-Cookie header for a login with `given`, or undefined when it is not the token. */
  login(given: string): string | undefined;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createPageAuth(token: string): PageAuth {
  const tokenDigest = digest(token);
  const session = createHmac("sha256", token).update("chainpulse operator page session").digest("base64url");
  const sessionDigest = digest(session);
  const is = (given: string | undefined, expected: Buffer): boolean => given !== undefined && timingSafeEqual(digest(given), expected);
  return {
    allowed(req) {
      const auth = req.headers.authorization;
      const bearer = auth !== undefined && /^Bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
      return is(bearer, tokenDigest) || is(cookieValue(req.headers.cookie, COOKIE), sessionDigest);
    },
    login(given) {
      if (!is(given, tokenDigest)) return undefined;
      return `${COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_SECONDS}`;
    },
  };
}
