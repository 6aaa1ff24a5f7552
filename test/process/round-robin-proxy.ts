/**
 * A small HTTP load balancer on loopback for the multi-worker tests: each request goes to the
 * next backend in turn; a backend that refuses the connection is skipped for the next one (as
 * nginx's `proxy_next_upstream error` does), one that fails mid-request answers 502. Every
 * answer's status is counted, so a test can tell what the clients behind it saw; `onAnswer`
 * hears each backend's whole answer as it reaches the balancer, before the client has it.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Proxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Answers by status code, as the clients saw them. */
  readonly statuses: ReadonlyMap<number, number>;
  /** Requests each backend answered, by its slot (its index among the backends given). */
  readonly served: ReadonlyMap<number, number>;
  /** Points slot `slot` at another base URL: a worker started again on a port of its own. */
  setBackend(slot: number, base: string): void;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** A backend's answer (status, body) to the request `request` (its body) arrived whole. */
  onAnswer?: (request: Buffer, status: number, body: Buffer) => void;
}

export async function startProxy(given: readonly string[], opts: ProxyOptions = {}): Promise<Proxy> {
  const backends = [...given];
  const statuses = new Map<number, number>();
  const served = new Map<number, number>();
  let next = 0;

  const answer = (res: ServerResponse, status: number): void => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (!res.headersSent) res.writeHead(status);
    res.end();
  };

  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse, tries: number): void => {
    if (tries >= backends.length) return answer(res, 502);
    const slot = next++ % backends.length;
    const base = backends[slot]!;
    const target = new URL(req.url ?? "/", base);
    // A fresh connection each time: "connected" then tells a refused backend from one that died mid-request.
    const out = request(target, { method: req.method, headers: { ...req.headers, host: target.host }, agent: false }, (back) => {
      served.set(slot, (served.get(slot) ?? 0) + 1);
      statuses.set(back.statusCode ?? 502, (statuses.get(back.statusCode ?? 502) ?? 0) + 1);
      res.writeHead(back.statusCode ?? 502, back.headers);
      const parts: Buffer[] = [];
      if (opts.onAnswer) back.on("data", (c: Buffer) => parts.push(c)).on("end", () => opts.onAnswer?.(body, back.statusCode ?? 502, Buffer.concat(parts)));
      back.pipe(res);
      back.on("error", () => res.destroy());
    });
    let connected = false;
    out.on("socket", (s) => s.once("connect", () => (connected = true)));
    out.on("error", () => {
      if (!connected) forward(req, body, res, tries + 1);
      else answer(res, 502);
    });
    out.end(body);
  };

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => forward(req, Buffer.concat(parts), res, 0));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    statuses,
    served,
    setBackend(slot, base) {
      backends[slot] = base;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
