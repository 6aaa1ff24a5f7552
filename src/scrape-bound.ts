/**
 * How long a gauge waits at a scrape for a reading from the database or Redis. Past it the gauge
 * keeps the value it had: a hung database must not hang /metrics (and the operator's page, which
 * samples the same registry) when those are what an operator reads to find out why.
 */
export const SCRAPE_WAIT_MS = 250;

/** `work`'s value if it settles within SCRAPE_WAIT_MS; undefined if it fails or takes longer. */
export async function withinScrape<T>(work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), SCRAPE_WAIT_MS);
  });
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
