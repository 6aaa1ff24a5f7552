import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/log.js";
import { redact } from "../src/market/decode.js";
import { redactSecrets } from "../src/secrets.js";

const TELEGRAM_TOKEN = "7123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
const TELEGRAM_SECRET_PART = "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
const DISCORD_TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB";
const MARKET_KEY = "mk_live_5f2c9a1e7b3d4c6a8e0f";
const SECRETS = [TELEGRAM_TOKEN, TELEGRAM_SECRET_PART, DISCORD_TOKEN, MARKET_KEY];

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

function expectNoSecret(output: string): void {
  for (const secret of [...SECRETS, encodeURIComponent(TELEGRAM_TOKEN)]) expect(output).not.toContain(secret);
}

function logEverything(log: ReturnType<typeof createLogger>): void {
  log.info({ url: `https://api.telegram.org/bot${TELEGRAM_TOKEN}/sendMessage` }, "telegram call");
  log.info(`GET https://api.telegram.org/bot${encodeURIComponent(TELEGRAM_TOKEN)}/getMe failed`);
  log.info({ headers: { "x-api-key": MARKET_KEY, "svc-auth": MARKET_KEY, authorization: `Bot ${DISCORD_TOKEN}` } }, "request");
  log.info({ options: { token: DISCORD_TOKEN }, market: { key: MARKET_KEY } }, "options");
  log.warn({ note: `the key is ${MARKET_KEY}, nested`, list: [MARKET_KEY, { deep: { deeper: TELEGRAM_TOKEN } }] }, "deep");
  const cause = new Error(`connect failed for ${MARKET_KEY}`);
  const error = new Error(`401 at /bot${TELEGRAM_TOKEN}/getUpdates`, { cause });
  log.error({ err: error }, "polling stopped");
  log.error(error);
  log.error({ error: new TypeError(`bad token ${DISCORD_TOKEN}`) }, "login");
  log.child({ token: TELEGRAM_TOKEN, bot: `bot${TELEGRAM_TOKEN}` }).info("from a child with secret bindings");
  log.info("printf-style %s and %o", TELEGRAM_TOKEN, { k: MARKET_KEY });
}

describe("createLogger", () => {
  it("keeps keys and tokens out of messages, objects, URLs, headers, errors and their causes", () => {
    const out = capture();
    logEverything(createLogger({ level: "info", pretty: false, destination: out.stream, secrets: SECRETS }));

    const output = out.text();
    expectNoSecret(output);
    expect(output).toContain("/bot[REDACTED]/sendMessage");
    expect(output).toContain("connect failed for [REDACTED]");
    expect(output).toContain("polling stopped");
  });

  it("writes one JSON object per line that still says what happened", () => {
    const out = capture();
    createLogger({ level: "info", pretty: false, destination: out.stream, secrets: SECRETS }).error(
      { err: new Error(`401 at /bot${TELEGRAM_TOKEN}/getMe`), endpoint: "getMe" },
      "telegram refused the token",
    );

    const lines = out.text().trim().split("\n");
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] ?? "") as { msg: string; endpoint: string; err: { message: string; stack: string } };
    expect(record.msg).toBe("telegram refused the token");
    expect(record.endpoint).toBe("getMe");
    expect(record.err.message).toBe("401 at /bot[REDACTED]/getMe");
    expect(record.err.stack).toContain("401 at /bot[REDACTED]/getMe");
  });

  it("censors credential fields by name even when their value is not a configured secret", () => {
    const out = capture();
    createLogger({ level: "info", pretty: false, destination: out.stream, secrets: [] }).info(
      { headers: { "x-api-key": "unlisted-key-1", "content-type": "application/json" }, token: "unlisted-token-2" },
      "request",
    );

    const output = out.text();
    expect(output).not.toContain("unlisted-key-1");
    expect(output).not.toContain("unlisted-token-2");
    expect(output).toContain("application/json");
  });

  it("keeps secrets out of pretty output too", () => {
    const out = capture();
    logEverything(createLogger({ level: "info", pretty: true, destination: out.stream, secrets: SECRETS }));

    const output = out.text();
    expectNoSecret(output);
    expect(output).toContain("polling stopped");
    expect(() => JSON.parse(output.split("\n")[0] ?? "")).toThrow();
  });

  it("writes nothing below its level", () => {
    const out = capture();
    const log = createLogger({ level: "warn", pretty: false, destination: out.stream, secrets: [] });
    log.info("quiet");
    log.warn("loud");

    expect(out.text()).not.toContain("quiet");
    expect(out.text()).toContain("loud");
  });
});

describe("the one secret redactor", () => {
  it("replaces a secret in any text, also percent-encoded and JSON-escaped, ignoring empty ones", () => {
    const quoted = 'ab"c';
    const text = `GET /bot${TELEGRAM_TOKEN}/getMe and /bot${encodeURIComponent(TELEGRAM_TOKEN)}/getMe ${JSON.stringify(quoted)}`;
    expect(redactSecrets(text, [TELEGRAM_TOKEN, quoted, ""])).toBe('GET /bot[REDACTED]/getMe and /bot[REDACTED]/getMe "[REDACTED]"');
  });

  it("is the one the market client runs the service's text through", () => {
    expect(redact).toBe(redactSecrets);
  });
});
