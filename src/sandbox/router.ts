/** Matches a method and path to an endpoint, static segments before `:param` ones. */
import { V1_ENDPOINTS } from "./handlers-v1.js";
import { V2_ENDPOINTS } from "./handlers-v2.js";
import type { Endpoint } from "./endpoint.js";

export interface RouteMatch {
  endpoint: Endpoint;
  params: Record<string, string>;
}

interface Compiled {
  endpoint: Endpoint;
  segments: string[];
}

/** Every endpoint name the router knows, the names fault specs select by. */
export const ENDPOINT_NAMES: readonly string[] = [...V2_ENDPOINTS, ...V1_ENDPOINTS].map((e) => e.name);

const compiled: Compiled[] = [...V2_ENDPOINTS, ...V1_ENDPOINTS].map((endpoint) => ({
  endpoint,
  segments: endpoint.path.split("/").filter((s) => s !== ""),
}));

/** The endpoint at `method` + `path` (already percent-decoded segments), or undefined. */
export function route(method: string, segments: readonly string[]): RouteMatch | undefined {
  for (const c of compiled) {
    if (c.endpoint.method !== method || c.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < c.segments.length && ok; i++) {
      const pattern = c.segments[i] as string;
      const actual = segments[i] as string;
      if (pattern.startsWith(":")) {
        if (actual === "") ok = false;
        else params[pattern.slice(1)] = actual;
      } else ok = pattern === actual;
    }
    if (ok) return { endpoint: c.endpoint, params };
  }
  return undefined;
}
