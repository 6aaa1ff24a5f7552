/**
 * The turn of one market call among every process that spends the same API key. The
 * scheduler spaces its own calls `1000 / rps` ms apart; with several workers each would keep
 * that pace alone and the key would see it times the number of workers. A gate shared by all
 * of them (Redis, redis/spacing-gate.ts) hands out one turn per interval to the calls of every
 * worker together; the in-process gate adds nothing to the scheduler's own spacing.
 */
export interface SpacingGate {
  /**
   * Whether other processes take turns here too: a scheduler then holds back its next call
   * until this one's turn came, so the calls wait in its queue, where deadlines are kept.
   */
  readonly shared: boolean;
  /** Resolves when this call may leave: at once in process, at its shared turn otherwise. */
  turn(): Promise<void>;
}

/** One process alone: the scheduler's own spacing is the whole pace. */
export const inProcessGate: SpacingGate = { shared: false, turn: () => Promise.resolve() };
