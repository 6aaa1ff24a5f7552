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
  /** Whether `req` carries the token or a session cookie not yet expired. */
  allowed(req: IncomingMessage): boolean;
  /** The Set-Cookie header for a login with `given`, or undefined when it is not the token. */
  login(given: string): string | undefined;
  /** The Set-Cookie header that ends the browser's session. */
  logout(): string;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * A session is `<expiry>.<HMAC of the expiry under the token>`: it ends at its expiry on the
 * server too, not only in a browser that honours Max-Age, and a copied cookie stops working then.
 */
export function createPageAuth(token: string, now: () => number = Date.now): PageAuth {
  const tokenDigest = digest(token);
  const sign = (expiry: string): string => createHmac("sha256", token).update(`chainpulse operator page session until ${expiry}`).digest("base64url");
  const is = (given: string | undefined, expected: Buffer): boolean => given !== undefined && timingSafeEqual(digest(given), expected);
  const live = (cookie: string | undefined): boolean => {
    const m = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(cookie ?? "");
    if (m === null) return false;
    const [, expiry = "", mac = ""] = m;
    return Number(expiry) * 1000 > now() && is(mac, digest(sign(expiry)));
  };
  return {
    allowed(req) {
      const auth = req.headers.authorization;
      const bearer = auth !== undefined && /^Bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
      return is(bearer, tokenDigest) || live(cookieValue(req.headers.cookie, COOKIE));
    },
    login(given) {
      if (!is(given, tokenDigest)) return undefined;
      const expiry = String(Math.floor(now() / 1000) + COOKIE_SECONDS);
      return `${COOKIE}=${expiry}.${sign(expiry)}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_SECONDS}`;
    },
    logout() {
      return `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
    },
  };
}
