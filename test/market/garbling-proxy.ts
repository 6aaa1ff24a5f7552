/**
 * A proxy on loopback in front of the sandbox that answers the service's batch prices with a
 * chosen garbage price: every `current_price_usd` of the answer is replaced by `garbage` as raw
 * JSON (`"\"0x10\""` a string, `"1e308"` a JSON number). Everything else passes unchanged, so
 * the real client decodes what a misbehaving service would send.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface GarblingProxy {
  readonly url: string;
  /** Raw JSON put in place of every price; undefined passes the service's own. */
  garbage: string | undefined;
  /** Batch price answers garbled so far. */
  readonly garbled: number;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startGarblingProxy(upstream: string): Promise<GarblingProxy> {
  let garbled = 0;
  const state: { garbage: string | undefined } = { garbage: undefined };
  const server = createServer((req, res) => {
    void (async () => {
      const sent = await body(req);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers.set(k, v);
      const back = await fetch(new URL(req.url ?? "/", upstream), { method: req.method, headers, body: sent.length > 0 ? sent : undefined });
      let text = await back.text();
      if (state.garbage !== undefined && (req.url ?? "").startsWith("/v2/tokens/price")) {
        text = text.replace(/"current_price_usd":("[^"]*"|[^,}]+)/g, `"current_price_usd":${state.garbage}`);
        garbled++;
      }
      res.writeHead(back.status, { "content-type": back.headers.get("content-type") ?? "application/json" });
      res.end(text);
    })().catch((e: unknown) => {
      res.writeHead(502);
      res.end(String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get garbage() {
      return state.garbage;
    },
    set garbage(g) {
      state.garbage = g;
    },
    get garbled() {
      return garbled;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
