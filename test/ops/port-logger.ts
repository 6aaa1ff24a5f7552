import { pino, type Logger } from "pino";
import { servedPortOf } from "../process/bot-process.js";

/**
 * A logger for a bot started in process with HTTP_PORT=0 (any free port), which keeps only the
 * start line that names the port: a port picked free beforehand could be taken by another
 * process before the bot binds it.
 */
export function portLogger(): { log: Logger; port(): number } {
  let port: number | undefined;
  const log = pino(
    { level: "info" },
    {
      write(line: string) {
        port ??= servedPortOf(line);
      },
    },
  );
  return {
    log,
    port() {
      if (port === undefined) throw new Error("the bot has not said which port it serves on");
      return port;
    },
  };
}
