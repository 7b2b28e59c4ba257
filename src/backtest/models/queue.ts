/**
 * Queue position of a resting order of ours in a level of the replayed L2 book: `ahead` is the displayed size
 * (lots) estimated in front of it. It starts at the level's whole displayed size when the order comes to rest
 * (everyone already there is ahead), falls with trades at the level, and follows size decreases that are not
 * trades according to the model:
 *
 * - `conservative` (hftbacktest's RiskAdverseQueueModel): a decrease is assumed to come from behind us; ahead
 *   only falls to the new level size when the level shrinks below it.
 * - `probabilistic` (hftbacktest's ProbQueueModel with a power function): a decrease of `d` lots is split
 *   between front and back; the share from the front is 1 − p with p = back^n / (back^n + front^n), where
 *   front = ahead and back = level − ahead. Larger n puts more cancellations behind us. Deterministic: the
 *   expected value is applied, no random draw.
 *
 * Trades at the level are counted since the last depth update and subtracted from the next decrease, so a
 * trade and the depth update it caused never reduce `ahead` twice (trades are applied before the depth).
 * `ahead` is a model estimate (a float); fills computed from it are whole lots.
 */
export type QueueModelName = 'conservative' | 'probabilistic';

export interface QueueModel {
  readonly name: QueueModelName;
  /** New `ahead` after the level went from `prev` to `next` lots, `traded` of which were trades since the last update. */
  depth(ahead: number, prev: number, next: number, traded: number): number;
}

export const conservativeQueue: QueueModel = {
  name: 'conservative',
  depth: (ahead, _prev, next) => Math.min(ahead, next),
};

/** The power-function probabilistic model with exponent `n` (hftbacktest's PowerProbQueueFunc; default 3). */
export function probabilisticQueue(n = 3): QueueModel {
  return {
    name: 'probabilistic',
    depth(ahead, prev, next, traded) {
      const chg = prev - next - traded;
      if (chg <= 0) return Math.min(ahead, next);
      const front = ahead;
      const back = Math.max(0, prev - front);
      const fb = back ** n;
      const ff = front ** n;
      const p = fb + ff === 0 ? 1 : fb / (fb + ff);
      const est = front - (1 - p) * chg + Math.min(back - p * chg, 0);
      return Math.max(0, Math.min(est, next));
    },
  };
}
