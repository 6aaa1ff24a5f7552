/**
 * A loopback proxy in front of the fake Bot API that enforces Telegram's broadcast limits
 * as the benchmark assumes them: at most G messages in any one-second window over all
 * chats, and at most 20 in any minute to one group. A send over either limit is refused with
 * 429 and `retry_after`, as Telegram does, and counted as a violation; the rest go through.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";

const SENDS = new Set(["sendMessage", "sendPhoto", "sendMediaGroup", "copyMessage", "forwardMessage"]);
const GROUP_PER_MINUTE = 20;

export interface Ceiling {
  /** Use as the bot's `apiRoot`. */
  readonly apiRoot: string;
  /** Sends refused for going over a limit. */
  violations(): number;
  /** Arrival times (ms, performance clock) of the sends let through. */
  accepted(): readonly number[];
  close(): Promise<void>;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The chat a send goes to: JSON `chat_id`, or the multipart field of that name. */
function chatOf(body: Buffer, type: string): string | undefined {
  if (type.startsWith("application/json")) {
    const id = (JSON.parse(body.toString("utf8")) as { chat_id?: unknown }).chat_id;
    return id === undefined ? undefined : String(id);
  }
  return /name="chat_id"\r\n\r\n([^\r]*)/.exec(body.toString("latin1"))?.[1];
}

/** Starts the proxy for `upstream` (the fake's apiRoot) with a global ceiling of `perSecond`. */
export async function startCeiling(upstream: string, perSecond: number): Promise<Ceiling> {
  const forward = new Pool(upstream, { connections: 64 });
  const passed: number[] = [];
  const byChat = new Map<string, number[]>();
  let refused = 0;
  let head = 0;

  const admit = (chat: string | undefined, t: number): boolean => {
    while (head < passed.length && (passed[head] as number) <= t - 1000) head++;
    if (passed.length - head >= perSecond) return false;
    if (chat?.startsWith("-")) {
      const recent = (byChat.get(chat) ?? []).filter((x) => x > t - 60_000);
      if (recent.length >= GROUP_PER_MINUTE) return false;
      recent.push(t);
      byChat.set(chat, recent);
    }
    passed.push(t);
    return true;
  };

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const method = /\/([A-Za-z]+)$/.exec((req.url ?? "").split("?")[0] ?? "")?.[1] ?? "";
      const type = String(req.headers["content-type"] ?? "");
      if (SENDS.has(method) && !admit(chatOf(body, type), performance.now())) {
        refused++;
        const answer = JSON.stringify({ ok: false, error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } });
        res.writeHead(429, { "content-type": "application/json" }).end(answer);
        return;
      }
      const out = await forward.request({
        method: (req.method ?? "POST") as "POST",
        path: req.url ?? "/",
        headers: type === "" ? {} : { "content-type": type },
        ...(body.length > 0 ? { body } : {}),
      });
      const text = await out.body.text();
      res.writeHead(out.statusCode, { "content-type": "application/json" }).end(text);
    })().catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(502).end(JSON.stringify({ ok: false, error_code: 502, description: String(e) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    violations: () => refused,
    accepted: () => passed,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await forward.close();
    },
  };
}
