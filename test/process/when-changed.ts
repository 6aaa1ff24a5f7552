/** Subscribes `listener` to a source's changes (a child's log, a fake's sessions); returns the unsubscribe. */
export type ChangeSource = (listener: () => void) => () => void;

/**
 * Waits until `check` holds, asked now and again at each change `sources` announce, never on a
 * timer: for a state spread over several processes' announcements (two workers' logs and the
 * sessions a fake sees). Fails naming `what` (worked out at the failure, if a function) after
 * `timeoutMs`; the bound only turns a broken run into a readable error.
 */
export function whenChanged(check: () => boolean, sources: readonly ChangeSource[], what: string | (() => string), timeoutMs: number): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      for (const off of offs) off();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`not within ${timeoutMs} ms: ${typeof what === "string" ? what : what()}`));
    }, timeoutMs);
    const offs = sources.map((subscribe) =>
      subscribe(() => {
        if (!check()) return;
        done();
        resolve();
      }),
    );
  });
}
