/**
 * SIGINT/SIGTERM: the first signal starts a graceful stop bounded in time; a second signal
 * exits at once (an operator pressing Ctrl-C twice means it).
 */
import type { Logger } from "pino";

export interface ShutdownOptions {
  /** Stops everything in order; resolves when done. */
  stop: (signal: string) => Promise<void>;
  /** The longest a graceful stop may take before the process exits anyway. */
  timeoutMs: number;
  logger: Logger;
  /** Default `process.exit`. */
  exit?: (code: number) => void;
  /** Default `process`. */
  emitter?: NodeJS.EventEmitter;
}

/** Exit codes as shells report signals: 128 + signal number. */
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** Installs the handlers; returns a function that removes them. */
export function handleShutdownSignals(opts: ShutdownOptions): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const emitter = opts.emitter ?? process;
  let stopping = false;
  const onSignal = (signal: string): void => {
    if (stopping) {
      opts.logger.warn({ signal }, "second signal: exiting now");
      exit(SIGNAL_EXIT[signal] ?? 1);
      return;
    }
    stopping = true;
    opts.logger.info({ signal, timeoutMs: opts.timeoutMs }, "shutting down");
    const timer = setTimeout(() => {
      opts.logger.error({ timeoutMs: opts.timeoutMs }, "shutdown took too long: exiting");
      exit(1);
    }, opts.timeoutMs);
    timer.unref();
    opts.stop(signal).then(
      () => {
        clearTimeout(timer);
        opts.logger.info("stopped");
        exit(0);
      },
      (e: unknown) => {
        clearTimeout(timer);
        opts.logger.error({ err: e }, "shutdown failed");
        exit(1);
      },
    );
  };
  const onInt = () => onSignal("SIGINT");
  const onTerm = () => onSignal("SIGTERM");
  emitter.on("SIGINT", onInt);
  emitter.on("SIGTERM", onTerm);
  return () => {
    emitter.off("SIGINT", onInt);
    emitter.off("SIGTERM", onTerm);
  };
}
