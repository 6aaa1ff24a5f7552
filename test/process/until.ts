/**
 * Waits until `check` holds, then returns; fails naming `what` (worked out at the failure, if a
 * function, so it can say what was seen) after `timeoutMs`. Only for state in another process's
 * database (a child's rows, its leases), which announces nothing to the test, so the check is
 * asked again every 50 ms; the bound only turns a broken run into a readable error. What a
 * child sent is waited for at the fake that received it (`FakeTelegram.when`), what it logs
 * or a fake's sessions with `whenChanged`, its exit on `exited`.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 90_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms: ${typeof what === "string" ? what : what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
