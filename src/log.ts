/**
 * The process logger: pino, JSON lines by default, pino-pretty on a terminal. Secrets (API
 * keys, bot tokens) never reach the output.
 */
import { createRequire } from "node:module";
import { pino, type DestinationStream, type Logger } from "pino";
import type { PinoPretty } from "pino-pretty";
import { REDACTED, redactForms, secretForms } from "./secrets.js";

export type { Logger } from "pino";

export { REDACTED } from "./secrets.js";

/**
 * Fields that carry credentials by name, at the top level and one level down (`req.headers`,
 * `options.token`). `key` is among them: name a cache key `cacheKey` if it should be shown.
 */
const CREDENTIAL_FIELDS = ["key", "apiKey", "api_key", "token", "botToken", "secret", "password", "authorization"];
const CREDENTIAL_HEADERS = ["authorization", "cookie", "x-api-key", "svc-auth", "x-telegram-bot-api-secret-token"];

const REDACT_PATHS = [
  ...CREDENTIAL_FIELDS.flatMap((field) => [field, `*.${field}`]),
  ...CREDENTIAL_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
];

export interface LoggerOptions {
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  level: string;
  /** Human-readable lines instead of JSON. Default: whether the destination is stderr on a terminal. */
  pretty?: boolean;
  /**
   * Where lines go. Default stderr, so that stdout stays for the console chat and for
   * `chainpulse ask --json`.
   */
  destination?: DestinationStream;
  /** Values that must never be written (`Config.secrets`); empty strings are ignored. */
  secrets: readonly string[];
}

/**
 * pino-pretty, loaded only for a terminal: a bot in a container or under a supervisor writes
 * JSON, and loading the formatter was about 70 ms of every such start. It is CommonJS, so it
 * loads synchronously, as createLogger must.
 */
function prettyStream(): typeof PinoPretty {
  return (createRequire(import.meta.url)("pino-pretty") as { PinoPretty: typeof PinoPretty }).PinoPretty;
}

/**
 * A logger whose output never holds a secret: known credential fields are censored by
 * path, and every serialized line (messages, URLs, error messages, stacks and causes,
 * child bindings) has each secret string replaced before it is written.
 */
export function createLogger(options: LoggerOptions): Logger {
  const forms = secretForms(options.secrets);
  const pretty = options.pretty ?? (options.destination === undefined && process.stderr.isTTY === true);
  const destination =
    options.destination ?? (pretty ? undefined : pino.destination({ dest: process.stderr.fd, sync: true }));
  const stream = pretty
    ? prettyStream()({ colorize: options.destination === undefined, destination: destination ?? process.stderr.fd, sync: true })
    : destination;

  return pino(
    {
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
      hooks: {
        streamWrite: (line) => redactForms(line, forms),
      },
    },
    stream,
  );
}
