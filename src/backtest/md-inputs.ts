/**
 * Opens the readers of a market-data replay from command-line arguments, with the price and amount scales
 * from the config or detected from the files' first rows. With `invalid` (`--skip-invalid`), both readers
 * skip invalid rows and count them there; without it they stop at the first one.
 */
import { openChunks } from './csv/chunk-source.js';
import type { InvalidRows } from './csv/invalid-rows.js';
import type { MdReader, Scales } from './formats/md-reader.js';
import { GateBookReader, type GateKind, GateTradeReader } from './formats/gate.js';
import { scanScales } from './formats/scan-scales.js';
import { TardisBookReader, TardisTradeReader } from './formats/tardis.js';
import { TardisTickerReader } from './formats/tardis-ticker.js';
import type { MdInputs } from './md-replay.js';
import type { ReplayConfig } from './replay-config.js';

/** Scales from the config, else the most decimals seen in either file (price and amount columns given). */
export async function resolveScales(cfg: ReplayConfig, files: readonly { path: string; price: number; amount: number }[]): Promise<Scales> {
  const p = cfg.market?.price_precision;
  const a = cfg.market?.amount_precision;
  if (p !== undefined && a !== undefined) return { priceScale: p, amountScale: a };
  let price = 0;
  let amount = 0;
  for (const f of files) {
    const s = await scanScales(f.path, f.price, f.amount);
    price = Math.max(price, s.price);
    amount = Math.max(amount, s.amount);
  }
  return { priceScale: p ?? price, amountScale: a ?? amount };
}

/** Tardis trades + incremental_book_L2, and a perpetual's derivative_ticker when `tickerPath` is given. */
export async function tardisInputs(tradesPath: string, bookPath: string, cfg: ReplayConfig, invalid?: InvalidRows,
  tickerPath?: string): Promise<MdInputs> {
  const scales = await resolveScales(cfg, [{ path: tradesPath, price: 6, amount: 7 }, { path: bookPath, price: 6, amount: 7 }]);
  const trades: MdReader = new TardisTradeReader(await openChunks(tradesPath), tradesPath, scales).skipInvalidInto(invalid);
  const book: MdReader = new TardisBookReader(await openChunks(bookPath), bookPath, scales).skipInvalidInto(invalid);
  const ticker = tickerPath === undefined ? undefined
    : new TardisTickerReader(await openChunks(tickerPath), tickerPath, scales.priceScale).skipInvalidInto(invalid);
  return { format: 'tardis', trades, book, ...(invalid === undefined ? {} : { invalid }), ...(ticker === undefined ? {} : { ticker }) };
}

/**
 * Gate dumps: spot deals + orderbooks, or futures trades + orderbooks; with `tickerPath` (futures), a Tardis
 * derivative_ticker gives the perpetual's recorded prices and funding (Gate's trade and book dumps carry none).
 */
export async function gateInputs(kind: GateKind, tradesPath: string, bookPath: string, cfg: ReplayConfig, invalid?: InvalidRows,
  tickerPath?: string): Promise<MdInputs> {
  const spot = kind === 'spot';
  const scales = await resolveScales(cfg, [
    { path: tradesPath, price: 2, amount: 3 },
    { path: bookPath, price: spot ? 3 : 2, amount: spot ? 4 : 3 },
  ]);
  const delta = cfg.gate?.amounts === 'delta' && spot;
  return {
    format: `gate-${kind}`,
    trades: new GateTradeReader(await openChunks(tradesPath), tradesPath, scales, kind).skipInvalidInto(invalid),
    book: new GateBookReader(await openChunks(bookPath), bookPath, scales, kind, delta).skipInvalidInto(invalid),
    ...(invalid === undefined ? {} : { invalid }),
    ...(tickerPath === undefined ? {}
      : { ticker: new TardisTickerReader(await openChunks(tickerPath), tickerPath, scales.priceScale).skipInvalidInto(invalid) }),
  };
}
