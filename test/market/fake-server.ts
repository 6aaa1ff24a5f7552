/**
 * A loopback stand-in for the data service that records every request and answers as the
 * test says, by request number when it needs to misbehave (undici's test/interceptors/retry.js).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  /** Raw path as sent, without the query: encoding is visible. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
}

/** "hang" never answers; "destroy" drops the connection without an answer. */
export type Respond = (req: Received, n: number) => Answer | "hang" | "destroy" | Promise<Answer | "hang" | "destroy">;

export interface FakeServer {
  url: string;
  received: Received[];
  /** TCP connections accepted so far: shows whether the client keeps them alive. */
  connections(): number;
  close(): Promise<void>;
}

export const v2ok = (data: unknown): Answer => ({ body: { status: 1, msg: "SUCCESS", data_type: 1, data } });
export const v1ok = (data: unknown): Answer => ({ body: { code: 0, msg: "success", data } });
export const failure = (status: number, msg: string, code = status >= 500 ? 2 : 1): Answer => ({
  status,
  body: { code, msg, data: {} },
});

function send(res: ServerResponse, answer: Answer): void {
  const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? {});
  const json = typeof answer.body !== "string";
  res.writeHead(answer.status ?? 200, {
    "content-type": json ? "application/json" : "text/plain",
    "content-length": Buffer.byteLength(text),
    ...answer.headers,
  });
  res.end(text);
}

export async function startFakeServer(respond: Respond): Promise<FakeServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = req.url ?? "/";
      const q = raw.indexOf("?");
      const r: Received = {
        method: req.method ?? "",
        path: q < 0 ? raw : raw.slice(0, q),
        query: new URLSearchParams(q < 0 ? "" : raw.slice(q + 1)),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(r);
      void Promise.resolve(respond(r, received.length)).then((answer) => {
        if (answer === "hang") return;
        if (answer === "destroy") req.socket.destroy();
        else send(res, answer);
      });
    });
  });
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
