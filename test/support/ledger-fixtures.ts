// Shared ledger fixtures: narrow and wide currencies, markets over them, users with sub-accounts.
import type { CurrencySpec } from '../../src/core/ledger/currencies.js';
import { Ledger, type LedgerOptions } from '../../src/core/ledger/ledger.js';
import { defineMarket, type Market, type MarketSpec } from '../../src/core/market.js';

/** USDT and BTC are narrow (max supply × 10^8 < 2^53), ETH (18 decimals) is wide, GT narrow with the default supply. */
export const CURRENCIES: readonly (CurrencySpec & { readonly maxSupply: string })[] = [
  { code: 'USDT', scale: 8, maxSupply: '50000000' },
  { code: 'BTC', scale: 8, maxSupply: '21000000' },
  { code: 'ETH', scale: 18, maxSupply: '100000000000' },
  { code: 'GT', scale: 2, maxSupply: '100000000000' },
];

export interface MarketFixture {
  readonly spec: MarketSpec;
  readonly market: Market;
  /** Typical price in ticks and largest typical order in lots, for generators. */
  readonly mid: number;
  readonly maxLots: number;
}

function fixture(spec: MarketSpec, mid: number, maxLots: number): MarketFixture {
  return { spec, market: defineMarket(spec), mid, maxLots };
}

/** Index i of this list is market index i of makeLedger's ledger. */
export const MARKETS: readonly MarketFixture[] = [
  fixture({ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 4 }, 6_000_000, 10_000),
  fixture({ id: 'ETH_USDT', base: 'ETH', quote: 'USDT', precision: 2, amount_precision: 4 }, 300_000, 100_000),
  fixture({ id: 'ETH_BTC', base: 'ETH', quote: 'BTC', precision: 5, amount_precision: 3 }, 5_000, 10_000),
  fixture({ id: 'GT_ETH', base: 'GT', quote: 'ETH', precision: 6, amount_precision: 2 }, 3_000, 1_000_000),
];

/** Users 1..5 are main accounts; 6 and 7 are sub-accounts of 1, 8 of 2. */
export const USERS: readonly (readonly [number, number])[] = [[1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [6, 1], [7, 1], [8, 2]];

/** A ledger with CURRENCIES, MARKETS and USERS registered. */
export function makeLedger(options?: LedgerOptions): Ledger {
  const l = new Ledger(options);
  for (const c of CURRENCIES) l.registerCurrency(c);
  for (const m of MARKETS) l.registerMarket(m.market, m.spec.base, m.spec.quote);
  for (const [uid, main] of USERS) l.addUser(uid, main);
  return l;
}
