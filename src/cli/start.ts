/**
 * `chainpulse start` (the default, and `npm start`): the bots when their tokens are set, else
 * the console chat. SIGINT/SIGTERM stop it gracefully within SHUTDOWN_TIMEOUT_MS; a second
 * signal exits at once. Exit 0 after a clean stop, 1 after a fatal error.
 */
import { loadConfig, readEnvironment } from "../config.js";
import { createLogger } from "../log.js";
import { FatalStartError, startBot, type RunningBot } from "../app/start-bot.js";
import { handleShutdownSignals } from "../ops/shutdown.js";

/** The lines `chainpulse start --help` prints below the usage. */
export const START_HELP: readonly string[] = [
  "Runs Telegram when TELEGRAM_BOT_TOKEN is set and Discord when DISCORD_BOT_TOKEN is (both in",
  "one process if both are); with neither, the console chat on stdin and stdout. Settings come",
  "from the environment and .env; .env.example lists them. SIGINT or SIGTERM stops it: exit 0",
  "after a clean stop, 1 if the stop overran SHUTDOWN_TIMEOUT_MS; a second signal exits at once.",
];

export async function startCommand(argv: string[]): Promise<number> {
  if (argv.length > 0) {
    process.stderr.write(`chainpulse start: takes no arguments (got "${argv[0]}"); settings come from the environment\n`);
    return 2;
  }
  const config = loadConfig(readEnvironment());
  const log = createLogger({ level: config.logLevel, secrets: config.secrets });
  // Signals are handled from the first moment: one during start-up cancels what is still to
  // start (the crash-loop wait included) and stops what has started.
  const startUp = new AbortController();
  const signalled = new Promise<number>((resolve) => {
    handleShutdownSignals({
      // Signals arrive only after this function yields, by when `starting` is set.
      stop: async (signal) => {
        startUp.abort();
        await (await starting).stop(signal);
      },
      timeoutMs: config.shutdownTimeoutMs,
      logger: log,
      // A clean stop returns normally so the last log lines are flushed; a second signal or an
      // overrun of the bound must not wait for anything.
      exit: (code) => (code === 0 ? resolve(0) : process.exit(code)),
    });
  });
  const starting = startBot({ config, log, stdin: process.stdin, stdout: process.stdout, signal: startUp.signal });
  let running: RunningBot;
  try {
    running = await starting;
  } catch (e) {
    if (!(e instanceof FatalStartError)) throw e;
    process.stderr.write(`chainpulse: ${e.message}\n`);
    return 1;
  }
  const code = await Promise.race([running.finished, signalled]);
  // Sockets a library keeps open must not hold the process after a stop.
  setTimeout(() => process.exit(code), 2_000).unref();
  return code;
}
