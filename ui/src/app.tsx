/**
 * The dashboard's shell: a header (pages, the engine's time, the sockets' state), and the page the location hash
 * names: `#/spot/BTC_USDT` or `#/futures/usdt/BTC_USDT` (the market list beside one market) and
 * `#/account/10001` (a user and the control plane). Hash routes keep the server's side to plain files.
 */
import { useEffect, useState } from 'preact/hooks';
import { futuresSocketUrl, sim, spotSocketUrl } from './api';
import { AccountPage } from './account';
import { type MarketRef, type MarketsState, refKey, SETTLES, useMarkets } from './markets';
import { MarketView } from './market-view';
import { feed } from './socket';

type Route = { page: 'market'; ref: MarketRef | undefined } | { page: 'account'; uid: number };

function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map((p) => decodeURIComponent(p));
  if (parts[0] === 'account') return { page: 'account', uid: /^[0-9]+$/.test(parts[1] ?? '') ? Number(parts[1]) : 0 };
  if (parts[0] === 'spot' && parts[1] !== undefined) return { page: 'market', ref: { kind: 'spot', name: parts[1], settle: '' } };
  if (parts[0] === 'futures' && parts[1] !== undefined && parts[2] !== undefined) return { page: 'market', ref: { kind: 'futures', name: parts[2], settle: parts[1] } };
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
function useLive(settles: readonly string[]): boolean {
  const [, tick] = useState(0);
  useEffect(() => {
    const offs = [spotSocketUrl, ...settles.map(futuresSocketUrl)].map((u) => feed(u).onStatus(() => tick((n) => n + 1)));
    return () => { for (const off of offs) off(); };
  }, [settles.join()]);
  return [spotSocketUrl, ...settles.map(futuresSocketUrl)].every((u) => feed(u).open);
}

function MarketList({ markets, current }: { markets: MarketsState; current: MarketRef | undefined }) {
  const group = (title: string, refs: readonly MarketRef[]) => refs.length === 0 ? null : (
    <>
      <h3>{title}</h3>
      <ul>
        {refs.map((r) => {
          const t = markets.tickers.get(refKey(r));
          const change = t?.change_percentage ?? '';
          return (
            <li key={refKey(r)} class={current !== undefined && refKey(current) === refKey(r) ? 'current' : ''}>
              <a href={hrefOf(r)} data-testid={`market-${refKey(r)}`}>
                <span class="name">{r.name}</span>
                <span class="num">{t?.last || '—'}</span>
                <span class={`num ${change.startsWith('-') ? 'down' : 'up'}`}>{change === '' ? '' : `${change.startsWith('-') ? '' : '+'}${change}%`}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </>
  );
  return (
    <nav class="markets" data-testid="market-list">
      {group('Spot', markets.spot)}
      {SETTLES.map((s) => group(`Perpetual · ${s.toUpperCase()}`, markets.futures.filter((f) => f.settle === s)))}
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
  return error === '' ? <p class="muted">loading users…</p> : <AccountPage uid={0} activity={0} contracts={[]} />;
}

export function App() {
  const route = parseRoute(useHash());
  const markets = useMarkets();
  const settles = [...new Set(markets.futures.map((f) => f.settle))];
  const live = useLive(settles);
  const market = route.page === 'market' ? route.ref ?? markets.spot[0] ?? markets.futures[0] : undefined;
  return (
    <div class="shell">
      <header>
        <h1>ringmatch</h1>
        <a href={market === undefined && markets.spot[0] !== undefined ? hrefOf(markets.spot[0]) : '#/'} class={route.page === 'market' ? 'active' : ''}>Markets</a>
        <a href="#/account" class={route.page === 'account' ? 'active' : ''}>Account &amp; control</a>
        <span class="spacer" />
        <span class="muted" data-testid="engine-time">{markets.engineTimeMs > 0 ? `engine time ${new Date(markets.engineTimeMs).toISOString().replace('T', ' ').slice(0, 19)} UTC` : ''}</span>
        <span class={live ? 'live on' : 'live'} data-testid="live">{live ? 'live' : 'connecting…'}</span>
      </header>
      {markets.error !== '' && <p class="error">{markets.error}</p>}
      {route.page === 'market' ? (
        <main class="with-side">
          <MarketList markets={markets} current={market} />
          {market === undefined ? <p class="muted">{markets.loaded ? 'no markets' : 'loading markets…'}</p>
            : <MarketView key={refKey(market)} m={market} ticker={markets.tickers.get(refKey(market))} />}
        </main>
      ) : (
        <main>
          {route.uid === 0 ? <FirstUser /> : <AccountPage uid={route.uid} activity={markets.activity} contracts={markets.futures} />}
        </main>
      )}
    </div>
  );
}
