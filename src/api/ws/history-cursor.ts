/**
 * A cursor over one of the futures or options state's bounded histories (liquidations, ADL, closes, settlements)
 * for the pushes. Times are in the rows' own unit (`t`: µs, or seconds for settlement rows).
 */

const NONE: readonly never[] = [];

/** The rows a bounded history (oldest dropped, see FuturesState.push) gained since the last call. */
export class HistoryCursor<T extends { readonly t: number }> {
  #last: T | undefined;

  constructor(list: readonly T[]) {
    this.#last = list[list.length - 1];
  }

  /** New rows, oldest first (none: a shared empty list, no allocation). When the remembered row is gone (a replaced
   * history), rows at `now` (in the rows' unit) or later. @allocates when there are new rows */
  fresh(list: readonly T[], now: number): readonly T[] {
    const newest = list[list.length - 1];
    if (newest === this.#last) return NONE;
    let i = list.length - 1;
    while (i >= 0 && list[i] !== this.#last) i--;
    const out = i >= 0 || this.#last === undefined ? list.slice(i + 1) : list.filter((r) => r.t >= now);
    this.#last = newest;
    return out;
  }
}
