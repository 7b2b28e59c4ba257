/**
 * Gate's delivery-futures shapes: a delivery contract is a futures Contract without the funding fields and with
 * the delivery ones (DeliveryContract: underlying, cycle, basis, settlement, expiry, delisting), and a position's
 * settlement is a DeliverySettlement. Orders, positions, accounts and histories render as the perpetual ones.
 *
 * Basis: basis_value = mark − index; basis_rate = (mark / index − 1) × (one year / time to expiry), the
 * annualised premium Gate shows (0 once expired or without prices). Decimal strings; no float touches money
 * (basis_rate is a display ratio computed in BigInt at 8 decimals).
 */
import type { Exchange } from '../core/exchange/exchange.js';
import type { Contract } from '../core/futures/contract.js';
import { DeliveryPhase, deliveryPhase, settlementPrice } from '../core/futures/delivery-settlement.js';
import { formatSigned, RATE_SCALE } from '../core/futures/futures-math.js';
import type { SettlementRow } from '../core/futures/futures-state.js';
import { formatUnits } from '../core/units.js';
import { type SizeForm, sizeOut } from './futures-shapes.js';

/** Fields of a perpetual Contract that a DeliveryContract does not have. */
const PERPETUAL_ONLY = ['funding_rate', 'funding_rate_indicative', 'funding_interval', 'funding_next_apply', 'funding_offset',
  'interest_rate', 'funding_rate_limit', 'funding_cap_ratio', 'funding_impact_value'];

const YEAR_S = 365n * 86_400n;

/** Gate's delivery status names by phase (ccxt: `active` = status "trading"). */
const STATUS = ['trading', 'delisting', 'delisting', 'delisted'] as const;

/** The basis of a contract at mark and index (ticks) and `nowSec`: [basis_value, basis_rate] as decimal strings. */
export function basisTexts(c: Contract, mark: number, index: number, nowSec: number): [string, string] {
  if (mark <= 0 || index <= 0) return ['0', '0'];
  const value = formatUnits(mark - index, c.priceScale);
  const left = BigInt(c.expireTime - nowSec);
  if (left <= 0n) return [value, '0'];
  const scale = 10n ** BigInt(RATE_SCALE);
  const r = (BigInt(mark - index) * scale * YEAR_S) / (BigInt(index) * left);
  return [value, formatSigned(r, RATE_SCALE)];
}

/**
 * A DeliveryContract from the perpetual rendering `base` of contract `ci` (futures-market-shapes.ts renderContract,
 * whose mark and index are in it): the delivery fields added, the funding ones removed. @allocates
 */
export function renderDeliveryContract(ex: Exchange, ci: number, base: Record<string, unknown>, markTicks: number, indexTicks: number,
  nowSec: number): Record<string, unknown> {
  const S = ex.futures;
  const c = S.contracts[ci]!;
  const out: Record<string, unknown> = { ...base };
  for (const k of PERPETUAL_ONLY) delete out[k];
  const phase = deliveryPhase(ex, ci, nowSec * 1e6);
  const [basisValue, basisRate] = basisTexts(c, markTicks, indexTicks, nowSec);
  const settled = phase === DeliveryPhase.Settled;
  return {
    ...out,
    underlying: `${c.base}_${c.quote}`, cycle: c.spec.cycle ?? 'WEEKLY',
    basis_rate: basisRate, basis_value: basisValue, basis_impact_value: formatSigned(c.impactValue, c.settleScale),
    settle_price: settled ? formatUnits(settlementPrice(ex, ci), c.priceScale) : '0',
    settle_price_interval: 60, settle_price_duration: c.settleDuration, settle_fee_rate: formatSigned(c.settleFeeRate, RATE_SCALE),
    expire_time: c.expireTime, in_delisting: phase !== DeliveryPhase.Trading, status: STATUS[phase],
    delisting_time: c.expireTime - c.delistDuration, delisted_time: c.expireTime,
  };
}

/** Gate's DeliverySettlement of a settlement row. */
export function renderSettlement(ex: Exchange, row: SettlementRow, form: SizeForm): Record<string, unknown> {
  const S = ex.futures;
  const c = S.contracts[S.contractOf(row.market)]!;
  return {
    time: row.t, contract: c.name, leverage: String(row.leverage), size: sizeOut(row.size, form), margin: row.margin,
    entry_price: row.entryPrice, settle_price: row.settlePrice, profit: row.profit, fee: row.fee,
  };
}
