/**
 * Amount fields that need the currencies' or markets' decimals: a currency pair's minimums, maximums and fees,
 * the users' opening balances, and the sum of everything credited at start-up against each currency's max supply.
 * Each field is checked with sim/config-check.ts's `amount`, so a bad value names its field and what is wrong;
 * zero is a valid balance (nothing is credited) and a valid minimum or maximum (none).
 */
import type { CurrencySpec } from '../core/ledger/currencies.js';
import { DEFAULT_MAX_SUPPLY } from '../core/ledger/currencies.js';
import { type AmountRule, amount, fail, formatScaled, type Obj, optionalAmount, pow10 } from './config-check.js';
import type { OpeningBalance } from './sim-config.js';

/** Per currency code: its decimals and max supply as an amount rule (`max` in units). */
export type CurrencyRules = ReadonlyMap<string, AmountRule & { readonly max: bigint }>;

/** The rules of registered currencies (their scale, and max supply in units). Specs are already checked. */
export function currencyRules(currencies: readonly CurrencySpec[]): CurrencyRules {
  return new Map(currencies.map((c) => {
    const supply = c.maxSupply ?? DEFAULT_MAX_SUPPLY;
    const [int = '0', frac = ''] = supply.split('.');
    const max = BigInt(int + frac.replace(/0+$/, '').padEnd(c.scale, '0').slice(0, c.scale));
    return [c.code, { scale: c.scale, of: c.code, max, maxText: `${formatScaled(max, c.scale)}, its max supply` }];
  }));
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Fees are percents with at most 4 decimals, up to 100. */
const FEE: AmountRule = { scale: 4, of: 'a fee in percent', max: 1_000_000n, maxText: '100' };

/**
 * A pair's amount fields (checked shape: `precision` and `amount_precision` are integers): base amounts at
 * `amount_precision` decimals, quote amounts at `precision` (as the market reads them), minimums not above
 * maximums, fees in percent. "0" means no minimum or maximum.
 */
export function checkPairAmounts(o: Obj, p: string): void {
  const id = o.id as string;
  const ap = o.amount_precision as number;
  const base: AmountRule = { scale: ap, of: `${id} base amounts (amount_precision ${ap})`, max: SAFE };
  const quote: AmountRule = { scale: o.precision as number, of: `${id} quote amounts (precision ${o.precision as number})`,
    max: SAFE / pow10(ap) };
  const minBase = optionalAmount(o, 'min_base_amount', p, base) ?? 0n;
  const maxBase = optionalAmount(o, 'max_base_amount', p, base) ?? 0n;
  const minQuote = optionalAmount(o, 'min_quote_amount', p, quote) ?? 0n;
  const maxQuote = optionalAmount(o, 'max_quote_amount', p, quote) ?? 0n;
  if (maxBase > 0n && minBase > maxBase) fail(`${p}.min_base_amount`, `must not be above max_base_amount (${o.max_base_amount as string})`);
  if (maxQuote > 0n && minQuote > maxQuote) fail(`${p}.min_quote_amount`, `must not be above max_quote_amount (${o.max_quote_amount as string})`);
  optionalAmount(o, 'fee', p, FEE);
  optionalAmount(o, 'maker_fee_rate', p, FEE);
}

/** A user's opening balances (`balances.spot.CUR`), each at its currency's decimals and within its max supply. */
export function checkBalances(balances: Obj, p: string, rules: CurrencyRules): void {
  for (const [account, byCurrency] of Object.entries(balances)) {
    for (const [code, v] of Object.entries(byCurrency as Obj)) amount(v, `${p}.${account}.${code}`, rules.get(code)!);
  }
}

/** Units of a checked decimal string at `scale` decimals. */
export function amountUnits(text: string, scale: number): bigint {
  const [int = '0', frac = ''] = text.split('.');
  return BigInt(int + frac.replace(/0+$/, '').padEnd(scale, '0'));
}

/** Units per currency of `credits` (checked decimal strings). */
export function creditedUnits(credits: readonly OpeningBalance[], rules: CurrencyRules): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const b of credits) out.set(b.currency, (out.get(b.currency) ?? 0n) + amountUnits(b.amount, rules.get(b.currency)!.scale));
  return out;
}

/**
 * Everything credited at start-up (users' balances, the lending pools, the market maker's funds), summed per
 * currency, must fit the currency's max supply: the ledger refuses credits beyond it.
 */
export function checkSupply(credits: readonly OpeningBalance[], rules: CurrencyRules): void {
  const sums = new Map<string, bigint>();
  for (const b of credits) {
    const r = rules.get(b.currency)!;
    const total = (sums.get(b.currency) ?? 0n) + amount(b.amount, `opening balance of ${b.currency} for uid ${b.uid}`, r);
    sums.set(b.currency, total);
    if (total > r.max) {
      fail(`opening balances of ${b.currency}`, `users' balances, the lending pool and the market maker's funds add up to `
        + `${formatScaled(total, r.scale)}, above ${b.currency}'s max supply ${formatScaled(r.max, r.scale)}: lower them (a pool with `
        + `unified.currencies.${b.currency}.lendable) or raise its max_supply in "currencies"`);
    }
  }
}
