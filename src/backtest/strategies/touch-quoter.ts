/**
 * Example strategy: quotes one bid and one ask at the touch (joining the best bid and best ask it sees), and
 * re-quotes when its quote is no longer at the touch, at most once per `requote_us`. It stops buying above
 * `max_position` lots and stops selling below −`max_position`. Options (config `strategy.options`):
 * `size` (decimal amount, default "0.01"), `requote_us` (default 100000), `max_position` (decimal, default "0.1").
 *
 * It uses onStart, onBook, onOrder (finishes and rejections free a side for a new quote) and onTimer.
 */
import type { OrderNote } from '../market-sim.js';
import type { Strategy, StrategyContext } from '../strategy.js';

interface Quote { ref: number; price: number; live: boolean }

export default function createStrategy(options: Readonly<Record<string, unknown>>): Strategy {
  const sizeText = typeof options.size === 'string' ? options.size : '0.01';
  const requoteUs = typeof options.requote_us === 'number' ? options.requote_us : 100_000;
  const maxText = typeof options.max_position === 'string' ? options.max_position : '0.1';
  let size = 0;
  let maxPos = 0;
  const quotes: [Quote | null, Quote | null] = [null, null];
  let lastQuote = Number.NEGATIVE_INFINITY;

  const requote = (ctx: StrategyContext): void => {
    if (ctx.now - lastQuote < requoteUs) return;
    const pos = ctx.position().lots;
    for (const side of [1, 2] as const) {
      const best = ctx.book.best(side);
      if (Number.isNaN(best)) continue;
      const q = quotes[side - 1] ?? null;
      if (q !== null && q.price === best) continue;
      if (q !== null && q.live) { ctx.cancel(q.ref); q.live = false; }
      const allowed = side === 1 ? pos < maxPos : pos > -maxPos;
      if (!allowed) { quotes[side - 1] = null; continue; }
      const ref = ctx.place({ side: side === 1 ? 'buy' : 'sell', price: best, amount: size, time_in_force: 'poc' });
      quotes[side - 1] = { ref, price: best, live: true };
    }
    lastQuote = ctx.now;
  };

  return {
    onStart(ctx) {
      size = ctx.lots(sizeText);
      maxPos = ctx.lots(maxText);
      ctx.timer(requoteUs, 1);
    },
    onBook: requote,
    onTimer(ctx) {
      requote(ctx);
      ctx.timer(requoteUs, 1);
    },
    onOrder(_ctx, n: OrderNote) {
      if (n.kind === 'finished' || n.kind === 'rejected') {
        for (const k of [0, 1]) if (quotes[k]?.ref === n.ref) quotes[k] = null;
      }
    }
  };
}
