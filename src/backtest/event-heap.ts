/**
 * A binary min-heap of scheduled simulation events keyed by (time, insertion order): equal times run in the
 * order they were scheduled, so a replay never depends on heap internals. O(log n) push and pop.
 */
export interface Scheduled<T> {
  readonly time: number;
  readonly seq: number;
  readonly item: T;
}

export class EventHeap<T> {
  readonly #a: Scheduled<T>[] = [];
  #seq = 0;

  get size(): number { return this.#a.length; }

  /** Time of the earliest event, or +Infinity. */
  peekTime(): number {
    return this.#a.length === 0 ? Number.POSITIVE_INFINITY : this.#a[0]!.time;
  }

  push(time: number, item: T): void {
    const a = this.#a;
    const e = { time, seq: ++this.#seq, item };
    let i = a.length;
    a.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(e, a[p]!)) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = e;
  }

  pop(): Scheduled<T> | undefined {
    const a = this.#a;
    if (a.length === 0) return undefined;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const r = l + 1;
        const c = r < a.length && less(a[r]!, a[l]!) ? r : l;
        if (!less(a[c]!, last)) break;
        a[i] = a[c]!;
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}

const less = <T>(x: Scheduled<T>, y: Scheduled<T>): boolean => x.time < y.time || (x.time === y.time && x.seq < y.seq);
