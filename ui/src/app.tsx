/**
 * The dashboard's shell: a header (pages, the engine's time, the sockets' state), and the page the location hash
 * names: `#/spot/BTC_USDT`, `#/futures/usdt/BTC_USDT`, `#/delivery/usdt/BTC_USDT_20261225` or
 * `#/options/BTC_USDT-20261129-60000-C` (the market list beside one market) and `#/account/10001` (a user and the
 * control plane). Hash routes keep the server's side to plain files.
 */
import { useEffect, useState } from 'preact/hooks';
import { sim } from './api';
import { percent } from './decimal';
import { AccountPage } from './account';
import { type MarketRef, type MarketsState, optionParts, optionSettle, refKey, SETTLES, useMarkets } from './markets';
import { MarketView } from './market-view';
import { allOpen, onFeedsChange } from './socket';

type Route = { page: 'market'; ref: MarketRef | undefined } | { page: 'account'; uid: number };

function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map((p) => decodeURIComponent(p));
  const [first, a, b] = parts;
  if (first === 'account') return { page: 'account', uid: /^[0-9]+$/.test(a ?? '') ? Number(a) : 0 };
  if (first === 'spot' && a !== undefined) return { page: 'market', ref: { kind: 'spot', name: a, settle: '', expiresMs: 0 } };
  if ((first === 'futures' || first === 'delivery') && a !== undefined && b !== undefined) return { page: 'market', ref: { kind: first, name: b, settle: a, expiresMs: 0 } };
  if (first === 'options' && a !== undefined) return { page: 'market', ref: { kind: 'options', name: a, settle: optionSettle(a), expiresMs: 0 } };
  return { page: 'market', ref: undefined };
}

const hrefOf = (r: MarketRef): string => `#/${refKey(r).split('/').map(encodeURIComponent).join('/')}`;

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = (): void => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

/** Whether every socket the page uses is open. */
function useLive(): boolean {
  const [live, setLive] = useState(allOpen());
  useEffect(() => onFeedsChange(() => setLive(allOpen())), []);
  return live;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `20261129` → `29 Nov 2026`. */
const dayOf = (yyyymmdd: string): string => `${yyyymmdd.slice(6, 8)} ${MONTHS[Number(yyyymmdd.slice(4, 6)) - 1] ?? '?'} ${yyyymmdd.slice(0, 4)}`;

/** A name that fits the list: `BTC_USDT 25 Dec` for a delivery contract, `60000 C` for an option (under its expiry). */
const shortName = (r: MarketRef): string => {
  if (r.kind === 'delivery') {
    const m = /^(.*)_([0-9]{8})$/.exec(r.name);
    return m === null ? r.name : `${m[1]} ${dayOf(m[2]!).slice(0, 6)}`;
  }
  if (r.kind !== 'options') return r.name;
  const o = optionParts(r.name);
  return `${o.strike} ${o.call ? 'C' : 'P'}`;
};
/** The list heading of an option's expiry: `Options · BTC_USDT · 29 Nov`. */
const expiryGroup = (name: string): string => `Options · ${optionParts(name).underlying} · ${dayOf(optionParts(name).date).slice(0, 6)}`;

function MarketList({ markets, current }: { markets: MarketsState; current: MarketRef | undefined }) {
  const group = (title: string, refs: readonly MarketRef[]) => refs.length === 0 ? null : (
    <>
      <h3>{title}</h3>
      <ul>
        {refs.map((r) => {
          const t = markets.tickers.get(refKey(r));
          const options = r.kind === 'options';
          const change = options ? '' : t?.change_percentage ?? '';
          // Options: the mark price (most contracts never trade) and the mark IV.
          const price = options ? t?.mark_price : t?.last;
          return (
            <li key={refKey(r)} class={current !== undefined && refKey(current) === refKey(r) ? 'current' : ''}>
              <a href={hrefOf(r)} data-testid={`market-${refKey(r)}`} title={r.name}>
                <span class="name">{shortName(r)}</span>
                <span class="num">{price || '—'}</span>
                {options ? <span class="num muted">{t?.mark_iv === undefined ? '' : `IV ${percent(t.mark_iv)}%`}</span>
                  : <span class={`num ${change.startsWith('-') ? 'down' : 'up'}`}>{change === '' ? '' : `${change.startsWith('-') ? '' : '+'}${change}%`}</span>}
              </a>
            </li>
          );
        })}
      </ul>
    </>
  );
  const expiries = [...new Set(markets.options.map((o) => expiryGroup(o.name)))];
  return (
    <nav class="markets" data-testid="market-list">
      {group('Spot', markets.spot)}
      {SETTLES.map((s) => group(`Perpetual · ${s.toUpperCase()}`, markets.futures.filter((f) => f.settle === s)))}
      {SETTLES.map((s) => group(`Delivery · ${s.toUpperCase()}`, markets.delivery.filter((f) => f.settle === s)))}
      {expiries.map((e) => group(e, markets.options.filter((o) => expiryGroup(o.name) === e)))}
    </nav>
  );
}

function FirstUser() {
  const [error, setError] = useState('');
  useEffect(() => {
    sim<{ uid: number }[]>('GET', '/sim/users').then((users) => {
      const first = users[0];
      if (first !== undefined) location.replace(`#/account/${first.uid}`);
      else setError('no users');
    }, (e: unknown) => setError(String(e)));
  }, []);
  return error === '' ? <p class="muted">loading users…</p> : <AccountPage uid={0} contracts={[]} />;
}

export function App() {
  const route = parseRoute(useHash());
  const markets = useMarkets();
  const live = useLive();
  const all = [...markets.spot, ...markets.futures, ...markets.delivery, ...markets.options];
  const market = route.page === 'market' ? route.ref ?? all[0] : undefined;
  // The listed entry of the routed market (with its expiry), when listed.
  const listed = market === undefined ? undefined : all.find((r) => refKey(r) === refKey(market)) ?? market;
  return (
    <div class="shell">
      <header>
        <h1>ringmatch</h1>
        <a href={market === undefined && all[0] !== undefined ? hrefOf(all[0]) : '#/'} class={route.page === 'market' ? 'active' : ''}>Markets</a>
        <a href="#/account" class={route.page === 'account' ? 'active' : ''}>Account &amp; control</a>
        <span class="spacer" />
        <span class="muted" data-testid="engine-time">{markets.engineTimeMs > 0 ? `engine time ${new Date(markets.engineTimeMs).toISOString().replace('T', ' ').slice(0, 19)} UTC` : ''}</span>
        <span class={live ? 'live on' : 'live'} data-testid="live">{live ? 'live' : 'connecting…'}</span>
      </header>
      {markets.error !== '' && <p class="error">{markets.error}</p>}
      {route.page === 'market' ? (
        <main class="with-side">
          <MarketList markets={markets} current={listed} />
          {listed === undefined ? <p class="muted">{markets.loaded ? 'no markets' : 'loading markets…'}</p>
            : <MarketView key={refKey(listed)} m={listed} ticker={markets.tickers.get(refKey(listed))} />}
        </main>
      ) : (
        <main>
          {route.uid === 0 ? <FirstUser /> : <AccountPage uid={route.uid} contracts={markets.futures} />}
        </main>
      )}
    </div>
  );
}
