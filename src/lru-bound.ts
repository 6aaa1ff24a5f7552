/**
 * How every large in-process LRU here is bounded: by entry count through `maxSize` at one a
 * piece rather than by `max`, for which lru-cache fills all `max` slots up front (35–45 ms at
 * every start for 100,000–200,000 slots, most never used). The bound is the same; the cache
 * grows as it is used.
 */
export function entryBound(entries: number): { maxSize: number; sizeCalculation: () => number } {
  return { maxSize: entries, sizeCalculation: () => 1 };
}
