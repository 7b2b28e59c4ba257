/**
 * One market: its ticker, a depth chart, the order book (20 levels a side) and recent trades. The book comes from
 * `spot.order_book` (a snapshot every 100 ms), `futures.order_book` (perpetual and delivery sockets) or
 * `options.order_book` (on every change); trades start from the REST list and then arrive on `spot.trades`,
 * `futures.trades` or `options.trades`.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { deliverySocketUrl, describeError, futuresSocketUrl, optionsSocketUrl, rest, spotSocketUrl } from './api';
import { addDec, formatDec, parseDec, percent, subDec, ZERO } from './decimal';
import { drawDepth, type Level } from './depth-chart';
import { type MarketRef, noteEngineTime, optionParts, type Ticker } from './markets';
import { feed } from './socket';

const LEVELS = 20;
const TRADES = 40;

interface Book { readonly bids: readonly Level[]; readonly asks: readonly Level[] }
interface Trade { readonly id: string; readonly timeMs: number; readonly side: 'buy' | 'sell'; readonly price: string; readonly amount: string }

const timeOf = (ms: number): string => (ms > 0 ? new Date(ms).toISOString().slice(11, 19) : '');

function spotTrade(t: Record<string, unknown>): Trade {
  return { id: String(t.id), timeMs: Number(t.create_time_ms), side: t.side === 'sell' ? 'sell' : 'buy', price: String(t.price), amount: String(t.amount) };
}

/** A contract's trade (futures, delivery, options; REST or pushed): size signed by the taker's side. */
function contractTrade(t: Record<string, unknown>): Trade {
  const size = String(t.size);
  return {
    id: String(t.id), timeMs: Number(t.create_time_ms ?? Number(t.create_time) * 1000), side: size.startsWith('-') ? 'sell' : 'buy',
    price: String(t.price), amount: size.replace(/^-/, ''),
  };
}

const contractLevels = (v: unknown): Level[] => (Array.isArray(v) ? v : []).map((l: { p: unknown; s: unknown }) => [String(l.p), String(l.s)] as const);
const spotLevels = (v: unknown): Level[] => (Array.isArray(v) ? v : []).map((l: unknown[]) => [String(l[0]), String(l[1])] as const);

/** Where a market's book and trades come from. */
interface Source {
  readonly socket: string;
  readonly book: readonly [string, readonly string[]];
  /** The book of a push, or undefined when it is another market's. */
  readonly bookOf: (r: unknown) => Book | undefined;
  readonly trades: readonly [string, readonly string[]];
  /** This market's trades of a push. */
  readonly tradesOf: (r: unknown) => Trade[];
  readonly restTrades: string;
  readonly restTrade: (t: Record<string, unknown>) => Trade;
}

function sourceOf(m: MarketRef): Source {
  const name = encodeURIComponent(m.name);
  if (m.kind === 'spot') {
    return {
      socket: spotSocketUrl,
      book: ['spot.order_book', [m.name, String(LEVELS), '100ms']],
      bookOf: (r) => {
        const b = r as { s?: unknown; bids?: unknown; asks?: unknown };
        return b.s === m.name ? { bids: spotLevels(b.bids), asks: spotLevels(b.asks) } : undefined;
      },
      trades: ['spot.trades', [m.name]],
      tradesOf: (r) => ((r as Record<string, unknown>).currency_pair === m.name ? [spotTrade(r as Record<string, unknown>)] : []),
      restTrades: `/spot/trades?currency_pair=${name}&limit=${TRADES}`,
      restTrade: spotTrade,
    };
  }
  const options = m.kind === 'options';
  const prefix = options ? 'options' : 'futures';
  return {
    socket: options ? optionsSocketUrl(m.settle) : m.kind === 'delivery' ? deliverySocketUrl(m.settle) : futuresSocketUrl(m.settle),
    book: [`${prefix}.order_book`, [m.name, String(LEVELS), '0']],
    bookOf: (r) => {
      const b = r as { contract?: unknown; bids?: unknown; asks?: unknown };
      return b.contract === m.name ? { bids: contractLevels(b.bids), asks: contractLevels(b.asks) } : undefined;
    },
    trades: [`${prefix}.trades`, [m.name]],
    tradesOf: (r) => (Array.isArray(r) ? (r as Record<string, unknown>[]) : []).filter((x) => x.contract === m.name).map(contractTrade),
    restTrades: options ? `/options/trades?contract=${name}&limit=${TRADES}` : `/${m.kind}/${m.settle}/trades?contract=${name}&limit=${TRADES}`,
    restTrade: contractTrade,
  };
}

/** The book and trades of `m`, live. */
function useMarketData(m: MarketRef): { book: Book | undefined; trades: readonly Trade[]; error: string } {
  const [book, setBook] = useState<Book | undefined>(undefined);
  const [trades, setTrades] = useState<readonly Trade[]>([]);
  const [error, setError] = useState('');
  useEffect(() => {
    setBook(undefined);
    setTrades([]);
    setError('');
    let live = true;
    const seen = new Set<string>();
    const add = (list: readonly Trade[]): void => {
      const fresh = list.filter((t) => !seen.has(t.id));
      for (const t of fresh) seen.add(t.id);
      if (fresh.length > 0) setTrades((old) => [...fresh, ...old].sort((x, y) => y.timeMs - x.timeMs).slice(0, TRADES));
    };
    const src = sourceOf(m);
    const socket = feed(src.socket);
    const offBook = socket.subscribe(src.book[0], src.book[1], (r, t) => {
      const b = src.bookOf(r);
      if (b === undefined) return;
      setBook(b);
      noteEngineTime(t);
    });
    const offTrades = socket.subscribe(src.trades[0], src.trades[1], (r, t) => {
      add(src.tradesOf(r));
      noteEngineTime(t);
    });
    rest<Record<string, unknown>[]>(src.restTrades).then((list) => { if (live) add(list.map(src.restTrade)); },
      (e: unknown) => { if (live) setError(describeError(e)); });
    return () => { live = false; offBook(); offTrades(); };
  }, [m.kind, m.name, m.settle]);
  return { book, trades, error };
}

function DepthChart({ book }: { book: Book | undefined }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = canvas.current;
    if (c === null) return undefined;
    const draw = (): void => drawDepth(c, book?.bids ?? [], book?.asks ?? []);
    draw();
    const resized = new ResizeObserver(draw);
    resized.observe(c);
    return () => resized.disconnect();
  }, [book]);
  return <canvas ref={canvas} class="depth" aria-label="depth chart" />;
}

function BookTable({ book, unit }: { book: Book | undefined; unit: string }) {
  if (book === undefined) return <p class="muted">waiting for the book…</p>;
  const rows = (levels: readonly Level[], side: 'bid' | 'ask') => {
    let sum = ZERO;
    const out = levels.map(([p, s]) => {
      sum = addDec(sum, parseDec(s));
      return { p, s, total: formatDec(sum) };
    });
    return (side === 'ask' ? out.reverse() : out).map((r) => (
      <tr class={side} key={`${side}${r.p}`}><td class="num price">{r.p}</td><td class="num">{r.s}</td><td class="num muted">{r.total}</td></tr>
    ));
  };
  const bestBid = book.bids[0]?.[0];
  const bestAsk = book.asks[0]?.[0];
  return (
    <table class="book" data-testid="order-book">
      <thead><tr><th>price</th><th>size ({unit})</th><th>total</th></tr></thead>
      <tbody class="asks">{rows(book.asks, 'ask')}</tbody>
      <tbody><tr class="spread"><td colSpan={3}>{bestBid !== undefined && bestAsk !== undefined
        ? `spread ${formatDec(subDec(parseDec(bestAsk), parseDec(bestBid)))}` : 'one side empty'}</td></tr></tbody>
      <tbody class="bids">{rows(book.bids, 'bid')}</tbody>
    </table>
  );
}

function Trades({ trades, unit }: { trades: readonly Trade[]; unit: string }) {
  return (
    <table class="trades" data-testid="trades">
      <thead><tr><th>time (UTC)</th><th>price</th><th>size ({unit})</th></tr></thead>
      <tbody>
        {trades.map((t) => (
          <tr key={t.id} class={t.side === 'buy' ? 'bid' : 'ask'}>
            <td class="muted">{timeOf(t.timeMs)}</td><td class="num price">{t.price}</td><td class="num">{t.amount}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const utc = (ms: number): string => (ms > 0 ? `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '');

/** What the heading says of a market's kind. */
function kindText(m: MarketRef): string {
  switch (m.kind) {
    case 'spot': return 'spot';
    case 'futures': return `perpetual · ${m.settle.toUpperCase()}`;
    case 'delivery': return `delivery · ${m.settle.toUpperCase()}${m.expiresMs > 0 ? ` · settles ${utc(m.expiresMs)}` : ''}`;
    case 'options': {
      const o = optionParts(m.name);
      return `${o.call ? 'call' : 'put'} option · strike ${o.strike} · ${o.underlying}${m.expiresMs > 0 ? ` · expires ${utc(m.expiresMs)}` : ''}`;
    }
  }
}

/** The ticker line of a market: spot and futures tickers; for options the mark price, IV and greeks. */
function TickerLine({ m, t }: { m: MarketRef; t: Ticker | undefined }) {
  const figure = (label: string, v: string | undefined, id?: string) => (v === undefined || v === ''
    ? null : <span class="figure" data-testid={id}><em>{label}</em> {v}</span>);
  const heading = <h2>{m.name}<small>{kindText(m)}</small></h2>;
  if (m.kind === 'options') {
    const iv = (v: string | undefined): string => (v === undefined ? '' : `${percent(v)} %`);
    return (
      <div class="ticker-line" data-testid="ticker">
        {heading}
        <span class="last" data-testid="mark" title="mark price">{t?.mark_price ?? '—'}</span>
        <span class="muted">mark</span>
        {t?.last_price !== '0' && figure('last', t?.last_price, 'last')}
        {figure('index', t?.index_price)}
        {figure('bid', t?.bid1_price)}
        {figure('ask', t?.ask1_price)}
        {figure('mark IV', iv(t?.mark_iv), 'mark-iv')}
        {figure('delta', t?.delta, 'delta')}
        {figure('gamma', t?.gamma)}
        {figure('vega', t?.vega)}
        {figure('theta', t?.theta)}
      </div>
    );
  }
  const change = t?.change_percentage ?? '';
  return (
    <div class="ticker-line" data-testid="ticker">
      {heading}
      <span class="last" data-testid="last">{t?.last || '—'}</span>
      {change !== '' && <span class={change.startsWith('-') ? 'down' : 'up'}>{change.startsWith('-') ? '' : '+'}{change} %</span>}
      {figure('bid', t?.highest_bid)}
      {figure('ask', t?.lowest_ask)}
      {figure('24h high', t?.high_24h)}
      {figure('24h low', t?.low_24h)}
      {m.kind === 'spot' ? figure('24h vol', t?.base_volume) : figure('24h vol', t?.volume_24h)}
      {m.kind !== 'spot' && figure('mark', t?.mark_price, 'mark')}
      {m.kind !== 'spot' && figure('index', t?.index_price)}
      {m.kind === 'futures' && figure('funding', t?.funding_rate)}
    </div>
  );
}

export function MarketView({ m, ticker }: { m: MarketRef; ticker: Ticker | undefined }) {
  const { book, trades, error } = useMarketData(m);
  const unit = m.kind === 'spot' ? m.name.split('_')[0]! : 'contracts';
  return (
    <section class="market" data-testid="market">
      <TickerLine m={m} t={ticker} />
      {error !== '' && <p class="error">{error}</p>}
      <div class="panel"><DepthChart book={book} /></div>
      <div class="columns">
        <div class="panel"><h3>Order book</h3><div class="scroll"><BookTable book={book} unit={unit} /></div></div>
        <div class="panel"><h3>Recent trades</h3><div class="scroll"><Trades trades={trades} unit={unit} /></div></div>
      </div>
    </section>
  );
}
