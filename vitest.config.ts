import { availableParallelism } from "node:os";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/** Files that start processes and servers and wait on them: the longest, so they start first. */
const SLOW = /[\\/]test[\\/](process|bench)[\\/]/;

/**
 * The long files first, then vitest's own order (its record of durations, else the largest
 * file first). On a fresh clone vitest has no record, and a long file started last would
 * leave one worker running it alone at the end of the run.
 */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => SLOW.test(f.moduleId)), ...sorted.filter((f) => !SLOW.test(f.moduleId))];
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // A worker keeps the modules it loaded for its next file: loading discord.js, grammY and
    // the bot's own modules again for each of 200 files was a third of the suite's CPU time.
    // Nothing under src/ keeps state at module level but caches of pure results, and every
    // test file builds its own bot, stores and servers.
    isolate: false,
    // Six files at once on 2 cores: the slow files wait on child processes, PostgreSQL,
    // Redis and protocol timers (a lease running out, Discord's 5 s between identifies) rather
    // than on their own CPU, and the other files fill those waits. With one core kept busy the
    // suite took 451 s at two, 349 s at three and 325 s at four on an older machine; on this
    // one, vitest alone took 168 and 159 s at four, 169 s at five, 147 and 143 s at six and 146 s
    // at eight, and `npm test` 183 s at four and 170 s at six. Their bounds are set for that
    // contention.
    maxWorkers: Math.max(6, availableParallelism() - 1),
    sequence: { sequencer: SlowFirst },
  },
});
