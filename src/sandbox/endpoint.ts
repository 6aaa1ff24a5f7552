/** What a route handler receives and what the router knows about it. */
import type { Market } from "./market.js";
import type { Rankings } from "./ranks.js";

export interface RequestCtx {
  market: Market;
  rankings: Rankings;
  /** Epoch seconds of the request. */
  now: number;
  quirks: boolean;
  query: URLSearchParams;
  /** Path parameters by the names in the route's pattern. */
  params: Readonly<Record<string, string>>;
  /** Parsed JSON body of a POST. */
  body: unknown;
}

export interface Endpoint {
  /** Endpoint name: the MarketApi method name, e.g. "tokenDetail". */
  name: string;
  method: "GET" | "POST";
  version: 1 | 2;
  /** Path with `:name` segments, e.g. `/v2/tokens/:id`. */
  path: string;
  /** The payload (`data` of the envelope); throws HttpFail to refuse. */
  handle(ctx: RequestCtx): unknown;
}
