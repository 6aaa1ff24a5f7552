/**
 * Lines a command prints, collected as they come, with a wait for the moment they say something:
 * each new line re-checks the waiters, so a test waits on the output itself, not on turns of the
 * event loop.
 */
export interface Lines {
  readonly all: string[];
  push(line: string): void;
  /** Resolves as soon as `ready(all)` holds (at once if it already does). */
  until(ready: (all: readonly string[]) => boolean): Promise<void>;
}

export function lines(): Lines {
  const all: string[] = [];
  const waiters = new Set<{ ready: (all: readonly string[]) => boolean; resolve: () => void }>();
  return {
    all,
    push(line) {
      all.push(line);
      for (const w of waiters) {
        if (!w.ready(all)) continue;
        waiters.delete(w);
        w.resolve();
      }
    },
    until(ready) {
      if (ready(all)) return Promise.resolve();
      return new Promise((resolve) => waiters.add({ ready, resolve }));
    },
  };
}
