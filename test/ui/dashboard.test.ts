// The dashboard in a real browser: Debian's chromium (installed by the set-up when missing and possible; never
// skipped) driven by playwright-core against the real server on the demo (simulated clock, so the book holds
// still between our own actions, and a control-plane token, as an operator would run it on a shared host).
// The page loads, lists every market the REST lists list (spot, perpetual, delivery, options) and shows the books
// the REST API shows (spot, perpetual, delivery, option; an option's mark, IV and delta as its REST ticker); trades
// placed over REST, signed with a demo key as a bot would, reach the trades, the ticker and the book over the
// WebSocket. The account page asks for the token, then shows a user's balances, live on /ws/sim: an order a bot
// rests away from the best prices appears in the open orders and leaves them when cancelled, and delivery and options
// positions and orders appear, all with no page action; a deposit and a clock move through the forms show up; the
// index-price form answers the server's result and a refusal's label. Moving the clock past expiries takes settled
// delivery contracts and options off the list, as off the REST lists. The token travels only in X-Sim-Token on /sim/
// requests and in the auth of the /ws/sim subscription, never in a URL.
import Big from 'big.js';
import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { signedFetch } from '../api/http-helpers.js';
import { builtDashboard, chromiumBinary } from '../support/dashboard.js';

const TOKEN = 'dashboard-test-token';
let sim: Simulator;
let browser: Browser;
let page: Page;
let base: string;
const requests: Request[] = [];
/** Frames the page sent on each socket, by URL. */
const sent: { url: string; payload: string }[] = [];

beforeAll(async () => {
  const executablePath = chromiumBinary();
  const dir = await builtDashboard();
  const config = validateConfig({ extends: 'demo', clock: { type: 'sim' }, engine: { runner: 'inline' }, admin_token: TOKEN });
  sim = await startSimulator(config, { host: '127.0.0.1', port: 0, dashboard: dir });
  base = `http://127.0.0.1:${sim.server.port}`;
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 30_000 });
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  page.on('request', (r) => requests.push(r));
  page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push({ url: ws.url(), payload: String(f.payload) })));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sim?.close();
});

/** Reads `read()` until `ok` holds (every 50 ms, at most `ms`), failing with `what` and the last reading. */
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`the page never showed ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The text of the first element matching `sel` ('' while there is none). */
const text = async (sel: string): Promise<string> => {
  const l = page.locator(sel).first();
  return (await l.count()) === 0 ? '' : l.innerText();
};
/** The cells of each row of `sel` (a table or tbody): chromium's innerText of a row separates its cells by tabs. */
const rowsOf = async (sel: string): Promise<string[][]> => (await page.locator(`${sel} tr`).allInnerTexts()).map((r) => r.split('\t').map((c) => c.trim()));
const balance = async (currency: string): Promise<string | undefined> => (await rowsOf('[data-testid=balances] tbody')).find((r) => r[0] === currency)?.[1];
const api = async <T>(path: string): Promise<T> => (await (await fetch(`${base}/api/v4${path}`)).json()) as T;
/** The markets the page lists whose key starts with `prefix` (`delivery/`), as keys. */
const listed = async (prefix: string): Promise<string[]> => (await page.evaluate<string[]>(
  `[...document.querySelectorAll('[data-testid^="market-${prefix}"]')].map((e) => e.getAttribute('data-testid'))`))
  .map((t) => t.slice('market-'.length));
/** What the REST lists list: delivery contracts of usdt and options of BTC_USDT, as the page's keys. */
const restListed = async (): Promise<{ delivery: string[]; options: string[] }> => ({
  delivery: (await api<{ name: string }[]>('/delivery/usdt/contracts')).map((c) => `delivery/usdt/${c.name}`),
  options: (await api<{ name: string }[]>('/options/contracts?underlying=BTC_USDT')).map((c) => `options/${c.name}`),
});
type Lv = { p: string; s: number };
/** A contract book's levels over REST as the page's rows show them: [price, size]. */
const levels = (l: Lv[]): string[][] => l.map((x) => [x.p, String(x.s)]);
const bookRows = async (): Promise<{ bids: string[][]; asks: string[][] }> => ({
  bids: (await rowsOf('[data-testid=order-book] tbody.bids')).map((r) => [r[0]!, r[1]!]),
  asks: (await rowsOf('[data-testid=order-book] tbody.asks')).reverse().map((r) => [r[0]!, r[1]!]),
});
/** A request signed with a demo key, as a bot sends it. */
async function bot(who: 'alice' | 'carol', method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const [route, query] = path.split('?') as [string, string | undefined];
  const r = await signedFetch(sim.server.port, { method, path: `/api/v4${route}`, query, key: `demo-${who}-key`, secret: `demo-${who}-secret`,
    body: body === undefined ? '' : JSON.stringify(body) });
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body as Record<string, unknown>;
}

describe('the dashboard in chromium', () => {
  it('loads, lists the markets and shows the book the REST API shows', async () => {
    const res = await page.goto(`${base}/ui/`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('ringmatch dashboard');
    await until('the market list', () => page.locator('[data-testid=market-list] a').count(), (n) => n >= 6);
    for (const m of ['spot/BTC_USDT', 'spot/ETH_USDT', 'spot/ETH_BTC', 'futures/usdt/BTC_USDT', 'futures/btc/BTC_USD']) {
      expect(await page.locator(`[data-testid="market-${m}"]`).count(), m).toBe(1);
    }
    const want = await restListed();
    expect(want.delivery.length).toBeGreaterThan(1);
    expect(want.options.length).toBeGreaterThan(1);
    expect(await listed('delivery/')).toEqual(want.delivery);
    expect(await listed('options/')).toEqual(want.options);
    await until('the order book', async () => [await page.locator('[data-testid=order-book] tbody.bids tr').count(),
      await page.locator('[data-testid=order-book] tbody.asks tr').count()], ([b, a]) => b! > 0 && a! > 0);
    await until('the sockets live', () => text('[data-testid=live]'), (t) => t === 'live');
    const rest = (await (await fetch(`${base}/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=20`)).json()) as { bids: string[][]; asks: string[][] };
    const asks = (await rowsOf('[data-testid=order-book] tbody.asks')).reverse();
    const bids = await rowsOf('[data-testid=order-book] tbody.bids');
    expect(asks.map((r) => [r[0], r[1]])).toEqual(rest.asks.map(([p, s]) => [p, s]));
    expect(bids.map((r) => [r[0], r[1]])).toEqual(rest.bids.map(([p, s]) => [p, s]));
    // Cumulative totals are exact sums.
    expect(bids.at(-1)![2]).toBe(rest.bids.reduce((t, [, s]) => t.plus(s!), new Big(0)).toString());
    expect(await page.locator('canvas.depth').count()).toBe(1);
  });

  it('shows a perpetual\'s book from the futures socket, as REST shows it', async () => {
    await page.locator('[data-testid="market-futures/usdt/BTC_USDT"]').click();
    const rest = (await (await fetch(`${base}/api/v4/futures/usdt/order_book?contract=BTC_USDT&limit=20`)).json()) as { bids: { p: string; s: number }[]; asks: { p: string; s: number }[] };
    expect(rest.bids.length).toBeGreaterThan(0);
    const want = rest.bids.map((l) => [l.p, String(l.s)]);
    await until('the perpetual\'s bids', async () => (await rowsOf('[data-testid=order-book] tbody.bids')).map((r) => [r[0], r[1]]),
      (bids) => JSON.stringify(bids) === JSON.stringify(want));
    expect((await rowsOf('[data-testid=order-book] tbody.asks')).reverse().map((r) => [r[0], r[1]])).toEqual(rest.asks.map((l) => [l.p, String(l.s)]));
    expect(await text('[data-testid=ticker] h2')).toContain('perpetual');
    await page.locator('[data-testid="market-spot/BTC_USDT"]').click();
    await until('the spot book again', () => text('[data-testid=ticker] h2'), (t) => t.startsWith('BTC_USDT') && t.includes('spot'));
    await until('the spot book\'s rows', () => page.locator('[data-testid=order-book] tbody.bids tr').count(), (n) => n > 0);
  });

  it('shows a delivery contract\'s book and an option\'s book, mark, IV and delta from their sockets, as REST shows them', async () => {
    const contract = (await api<{ name: string }[]>('/delivery/usdt/contracts'))[0]!.name;
    await page.locator(`[data-testid="market-delivery/usdt/${contract}"]`).click();
    const dbook = await api<{ bids: Lv[]; asks: Lv[] }>(`/delivery/usdt/order_book?contract=${contract}&limit=20`);
    expect(dbook.bids.length).toBeGreaterThan(0);
    await until('the delivery book', bookRows, (b) => JSON.stringify(b) === JSON.stringify({ bids: levels(dbook.bids), asks: levels(dbook.asks) }));
    expect(await text('[data-testid=ticker] h2')).toContain('delivery');
    const dticker = (await api<{ mark_price: string }[]>(`/delivery/usdt/tickers?contract=${contract}`))[0]!;
    await until('the delivery mark price', () => text('[data-testid=mark]'), (t) => t === `mark ${dticker.mark_price}`);

    const option = (await api<{ name: string }[]>('/options/contracts?underlying=BTC_USDT'))[2]!.name;
    await page.locator(`[data-testid="market-options/${option}"]`).click();
    const obook = await api<{ bids: Lv[]; asks: Lv[] }>(`/options/order_book?contract=${option}&limit=20`);
    expect(obook.asks.length).toBeGreaterThan(0);
    await until('the option\'s book', bookRows, (b) => JSON.stringify(b) === JSON.stringify({ bids: levels(obook.bids), asks: levels(obook.asks) }));
    const oticker = (await api<{ name: string; mark_price: string; mark_iv: string; delta: string }[]>('/options/tickers?underlying=BTC_USDT'))
      .find((t) => t.name === option)!;
    await until('the option\'s mark price', () => text('[data-testid=mark]'), (t) => t === oticker.mark_price);
    expect(await text('[data-testid=mark-iv]')).toBe(`mark IV ${new Big(oticker.mark_iv).times(100).toString()} %`);
    expect(await text('[data-testid=delta]')).toBe(`delta ${oticker.delta}`);
    expect(await text('[data-testid=ticker] h2')).toContain('option');

    // A trade on the option, placed over REST: in the trades and the book.
    const [ask, size] = [obook.asks[0]!.p, obook.asks[0]!.s];
    expect((await bot('alice', 'POST', '/options/orders', { contract: option, size: 1, price: ask, tif: 'ioc' })).finish_as).toBe('filled');
    await until('the option\'s trade', () => rowsOf('[data-testid=trades] tbody'), (rows) => rows.some((r) => r[1] === ask && r[2] === '1'));
    await until('the option\'s best ask reduced', async () => (await bookRows()).asks[0], (a) => a !== undefined && a[0] === ask && a[1] === String(size - 1));
    await page.locator('[data-testid="market-spot/BTC_USDT"]').click();
    await until('the spot book again', () => text('[data-testid=ticker] h2'), (t) => t.startsWith('BTC_USDT') && t.includes('spot'));
    await until('the spot book\'s rows', () => page.locator('[data-testid=order-book] tbody.bids tr').count(), (n) => n > 0);
  });

  it('shows a trade placed over REST in the trades, the ticker and the book, pushed over the WebSocket', async () => {
    const rest = (await (await fetch(`${base}/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=1`)).json()) as { asks: string[][] };
    const [askPrice, askSize] = rest.asks[0]!;
    const amount = '0.012345';
    const placed = await signedFetch(sim.server.port, {
      method: 'POST', path: '/api/v4/spot/orders', key: 'demo-bob-key', secret: 'demo-bob-secret',
      body: JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', type: 'limit', price: askPrice, amount, time_in_force: 'ioc' }),
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect((placed.body as { finish_as: string }).finish_as).toBe('filled');
    await until('the trade in the trades list', () => rowsOf('[data-testid=trades] tbody'), (rows) => rows.some((r) => r[1] === askPrice && r[2] === amount));
    await until('the trade price as the last price', () => text('[data-testid=last]'), (t) => t === askPrice);
    const left = new Big(askSize!).minus(amount).toString();
    await until('the best ask reduced by the trade', async () => (await rowsOf('[data-testid=order-book] tbody.asks')).at(-1),
      (best) => best !== undefined && best[0] === askPrice && best[1] === left);
    const listed = await text('[data-testid="market-spot/BTC_USDT"]');
    expect(listed).toContain(askPrice);
  });

  it('asks for the control-plane token, then shows a user\'s balances', async () => {
    await page.goto(`${base}/ui/#/account/10003`);
    await until('the control plane\'s refusal', () => text('[data-testid=access-error]'), (t) => t.startsWith('FORBIDDEN: '));
    await page.locator('input[name=sim-token]').fill(TOKEN);
    await page.locator('form.token button[type=submit]').click();
    await until('carol\'s balances', () => balance('USDT'), (b) => b === '25000');
    expect(page.url()).not.toContain(TOKEN);
    expect(await page.evaluate('sessionStorage.getItem("ringmatch.simToken")')).toBe(TOKEN);
  });

  it('shows an order a bot rests away from the best prices, and its cancel, with no page action', async () => {
    const book = await api<{ bids: string[][] }>('/spot/order_book?currency_pair=BTC_USDT&limit=1');
    const price = String(Math.floor(Number(book.bids[0]![0]) * 0.8));
    const order = await bot('carol', 'POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price });
    const ids = async (): Promise<string[]> => (await rowsOf('[data-testid=spot-orders] tbody')).map((r) => r[0]!);
    await until('carol\'s resting bid', ids, (l) => l.includes(String(order.id)));
    const row = (await rowsOf('[data-testid=spot-orders] tbody')).find((r) => r[0] === String(order.id))!;
    expect(row.slice(1, 7)).toEqual(['BTC_USDT', 'spot', 'buy', 'limit', price, '0.01']);
    await until('the USDT it locks', async () => (await rowsOf('[data-testid=balances] tbody')).find((r) => r[0] === 'USDT')?.[2],
      (l) => l === new Big(price).times('0.01').toString());
    await bot('carol', 'DELETE', `/spot/orders/${String(order.id)}?currency_pair=BTC_USDT`);
    await until('the cancel', ids, (l) => !l.includes(String(order.id)));
    expect(await balance('USDT')).toBe('25000');
  });

  it('deposits through the form, and the deposit shows in the balances once the clock form moves past its confirmations', async () => {
    const form = page.locator('[data-testid=deposit-form]');
    await until('the chains of USDT', () => form.locator('select[name=chain] option').count(), (n) => n > 1);
    await form.locator('input[name=amount]').fill('250.5');
    await form.locator('button[type=submit]').click();
    await until('the deposit\'s answer', () => text('[data-testid=deposit-result]'), (t) => /^deposit d[0-9]+: 250\.5 USDT to 10003 on ETH, TRACK$/.test(t));
    // The demo's ETH chain needs 12 blocks of 2 s: not credited yet on the simulated clock.
    expect(await balance('USDT')).toBe('25000');
    const clock = page.locator('[data-testid=clock-form]');
    await clock.locator('input[name=advance_ms]').fill('60000');
    await clock.locator('button[type=submit]').click();
    await until('the clock\'s answer', () => text('[data-testid=clock-result]'), (t) => /^clock at 20[0-9-]+T[0-9:.]+Z \([0-9]+ ms\)$/.test(t));
    await until('the credited deposit', () => balance('USDT'), (b) => b === '25250.5');
  });

  it('sets an index price through the form and shows a refusal\'s label', async () => {
    const form = page.locator('[data-testid=index-form]');
    await form.locator('select[name=contract]').selectOption('usdt/BTC_USDT');
    await form.locator('input[name=index]').fill('61000');
    await form.locator('button[type=submit]').click();
    await until('the new index price', () => text('[data-testid=index-result]'), (t) => /^BTC_USDT \(usdt\): index 61000, mark /.test(t));
    expect(((await (await fetch(`${base}/api/v4/futures/usdt/tickers?contract=BTC_USDT`)).json()) as { index_price: string }[])[0]!.index_price).toBe('61000');
    await form.locator('input[name=index]').fill('-5');
    await form.locator('button[type=submit]').click();
    await until('the refusal\'s label', () => text('[data-testid=index-result].error'), (t) => /^[A-Z_]{5,}: /.test(t));
  });

  it('shows a user\'s delivery and options positions and orders as a bot opens them, with no page action', async () => {
    await page.locator('select[name=uid]').selectOption('10001');
    await until('alice\'s accounts', () => page.locator('[data-testid=delivery-account-usdt], [data-testid=options-account-usdt]').count(), (n) => n === 2);
    const contract = (await api<{ name: string }[]>('/delivery/usdt/contracts'))[0]!.name;
    const dbook = await api<{ bids: Lv[]; asks: Lv[] }>(`/delivery/usdt/order_book?contract=${contract}&limit=1`);
    await bot('alice', 'POST', '/delivery/usdt/orders', { contract, size: 3, price: dbook.asks[0]!.p, tif: 'ioc' });
    const resting = await bot('alice', 'POST', '/delivery/usdt/orders', { contract, size: 1, price: String(Math.floor(Number(dbook.bids[0]!.p) * 0.98)) });
    await until('the delivery position', () => rowsOf('[data-testid=delivery-positions-usdt] tbody'), (rows) => rows.some((r) => r[0] === contract && r[1] === '3'));
    await until('the resting delivery order', () => rowsOf('[data-testid=delivery-orders-usdt] tbody'), (rows) => rows.some((r) => r[0] === String(resting.id)));

    const option = (await api<{ name: string }[]>('/options/contracts?underlying=BTC_USDT'))[0]!.name;
    const obook = await api<{ bids: Lv[] }>(`/options/order_book?contract=${option}&limit=1`);
    const bid = await bot('alice', 'POST', '/options/orders', { contract: option, size: 2, price: String(Math.max(0.1, Math.floor(Number(obook.bids[0]!.p) / 2))), tif: 'gtc' });
    await until('the resting option order', () => rowsOf('[data-testid=options-orders-usdt] tbody'), (rows) => rows.some((r) => r[0] === String(bid.id) && r[1] === option));
    // The option bought in the market test: its position with mark, IV and greeks, as the user's REST read.
    const [position] = (await bot('alice', 'GET', '/options/positions')) as unknown as { contract: string; size: number; delta: string }[];
    await until('the option position', () => rowsOf('[data-testid=options-positions-usdt] tbody'),
      (rows) => rows.some((r) => r[0] === position!.contract && r[1] === String(position!.size) && r[6] === position!.delta));
  });

  it('takes settled options and delivery contracts off the list when the clock passes their expiry', async () => {
    await page.goto(`${base}/ui/#/spot/BTC_USDT`);
    await until('the market list', () => listed('options/'), (l) => l.length > 0);
    const contracts = await api<{ name: string; expire_time: number }[]>('/delivery/usdt/contracts');
    const options = await api<{ name: string; expiration_time: number }[]>('/options/contracts?underlying=BTC_USDT');
    const first = Math.min(...options.map((o) => o.expiration_time));
    const clock = async (ms: number): Promise<void> => {
      const r = await fetch(`${base}/sim/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Sim-Token': TOKEN }, body: JSON.stringify({ set_ms: ms }) });
      expect(r.status).toBe(200);
    };
    // Past the first options expiry (the demo's options expire a day and a week after the clock's start).
    await clock(first * 1000 + 60_000);
    let want = await restListed();
    expect(want.options.length).toBeGreaterThan(0);
    expect(want.options.length).toBeLessThan(options.length);
    await until('the first expiry\'s options off the list', () => listed('options/'), (l) => JSON.stringify(l) === JSON.stringify(want.options));
    // Past the first delivery contract's expiry (everything expiring before it too).
    await clock(contracts[0]!.expire_time * 1000 + 60_000);
    want = await restListed();
    expect(want.delivery).toEqual(contracts.slice(1).map((c) => `delivery/usdt/${c.name}`));
    await until('the settled delivery contract off the list', () => listed('delivery/'), (l) => JSON.stringify(l) === JSON.stringify(want.delivery));
    expect(await listed('options/')).toEqual(want.options);
  });

  it('sent the token only in X-Sim-Token on control-plane requests and in the /ws/sim subscription, never in a URL', () => {
    const simCalls = requests.filter((r) => new URL(r.url()).pathname.startsWith('/sim/'));
    expect(simCalls.length).toBeGreaterThan(3);
    for (const r of requests) expect(r.url()).not.toContain(TOKEN);
    const after = simCalls.filter((r) => r.headers()['x-sim-token'] !== undefined);
    expect(after.length).toBeGreaterThan(0);
    for (const r of after) expect(r.headers()['x-sim-token']).toBe(TOKEN);
    for (const r of requests.filter((q) => new URL(q.url()).pathname.startsWith('/api/'))) expect(r.headers()['x-sim-token']).toBeUndefined();
    // Sockets: the token only in the sim.user subscriptions' auth on /ws/sim.
    const withToken = sent.filter((f) => f.payload.includes(TOKEN));
    expect(withToken.length).toBeGreaterThan(0);
    for (const f of withToken) {
      expect(new URL(f.url).pathname).toBe('/ws/sim');
      expect(f.url).not.toContain(TOKEN);
      const frame = JSON.parse(f.payload) as { channel: string; auth: { method: string; token: string } };
      expect(frame.channel).toBe('sim.user');
      expect(frame.auth).toEqual({ method: 'sim_token', token: TOKEN });
    }
  });
});
