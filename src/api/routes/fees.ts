/** Gate's fee objects (SpotFee, TradeFee) from a market's rates: fractions, not percent. */
import type { Exchange } from '../../core/exchange/exchange.js';
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

/** TradeFee (GET /wallet/fee): SpotFee's rates plus the futures fields (zero: no futures yet). */
export function renderTradeFee(ex: Exchange, uid: number, m: number): Record<string, unknown> {
  const spot = renderFee(ex, uid, m);
  delete spot.currency_pair;
  return {
    ...spot, futures_taker_fee: '0', futures_maker_fee: '0', futures_rpi_maker_fee: '0',
    delivery_taker_fee: '0', delivery_maker_fee: '0',
  };
}
