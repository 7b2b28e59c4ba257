/** Gate's fee objects (SpotFee, TradeFee) from a market's rates: fractions, not percent. */
import type { Exchange } from '../../core/exchange/exchange.js';
import { rateText } from '../../gate/futures-shapes.js';
import { ppmFraction } from './common.js';

/** SpotFee for `uid` in market `m` (the first market's rates when m < 0, pair left ''). */
export function renderFee(ex: Exchange, uid: number, m: number): Record<string, unknown> {
  const f = ex.feesOf(Math.max(0, m));
  return {
    user_id: uid, taker_fee: ppmFraction(f.taker), maker_fee: ppmFraction(f.maker), rpi_maker_fee: '0',
    gt_discount: false, gt_taker_fee: '0', gt_maker_fee: '0', loan_fee: '0', point_type: '0',
    currency_pair: m < 0 ? '' : ex.markets[m]!.id, debit_fee: 3, rpi_mm: 0,
  };
}

/**
 * The perpetual whose rates GET /wallet/fee reports as `futures_taker_fee` / `futures_maker_fee`: the contract named
 * like the pair asked (ccxt's fetchTradingFee on a swap sends the contract's id as `currency_pair`), in `settle`
 * when given, else the first contract of `settle`, else the first contract; -1 when none is configured.
 */
function feeContract(ex: Exchange, m: number, settle: string | undefined): number {
  const cs = ex.futures.contracts;
  const inSettle = (i: number): boolean => settle === undefined || settle === '' || cs[i]!.settle === settle.toLowerCase();
  const name = m < 0 ? undefined : ex.markets[m]!.id;
  const named = cs.findIndex((c, i) => c.name === name && inSettle(i));
  if (named >= 0) return named;
  const first = cs.findIndex((_, i) => inSettle(i));
  return first >= 0 ? first : cs.length > 0 ? 0 : -1;
}

/** TradeFee (GET /wallet/fee): SpotFee's rates plus the futures rates (see feeContract); delivery has none yet. */
export function renderTradeFee(ex: Exchange, uid: number, m: number, settle?: string): Record<string, unknown> {
  const spot = renderFee(ex, uid, m);
  delete spot.currency_pair;
  const ci = feeContract(ex, m, settle);
  const c = ci < 0 ? undefined : ex.futures.contracts[ci]!;
  return {
    ...spot, futures_taker_fee: c === undefined ? '0' : rateText(c.takerRate), futures_maker_fee: c === undefined ? '0' : rateText(c.makerRate),
    futures_rpi_maker_fee: '0', delivery_taker_fee: '0', delivery_maker_fee: '0',
  };
}
