/** A cursor over one of the futures state's bounded histories (liquidations, ADL, closes) for the pushes. */

const NONE: readonly never[] = [];

/** The rows a bounded history (oldest dropped, see FuturesState.push) gained since the last call. */
export class HistoryCursor<T extends { readonly t: number }> {
  #last: T | undefined;

  constructor(list: readonly T[]) {
    this.#last = list[list.length - 1];
  }

  /** New rows, oldest first (none: a shared empty list, no allocation). When the remembered row is gone (a replaced
   * history), rows at `nowUs` or later. @allocates when there are new rows */
  fresh(list: readonly T[], nowUs: number): readonly T[] {
    const newest = list[list.length - 1];
    if (newest === this.#last) return NONE;
    let i = list.length - 1;
    while (i >= 0 && list[i] !== this.#last) i--;
    const out = i >= 0 || this.#last === undefined ? list.slice(i + 1) : list.filter((r) => r.t >= nowUs);
    this.#last = newest;
    return out;
  }
}
