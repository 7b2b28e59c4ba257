// The dashboard in a real browser: Debian's chromium (installed by the set-up when missing and possible; never
// skipped) driven by playwright-core against the real server on the demo (simulated clock, so the book holds
// still between our own actions, and a control-plane token, as an operator would run it on a shared host).
// The page loads and shows the book the REST API shows; a trade placed over REST, signed with a demo key as a bot
// would, reaches the trades, the ticker and the book over the WebSocket; the account page asks for the token,
// then shows a user's balances; a deposit and a clock move through the forms show up in them; the index-price
// form answers the server's result and a refusal's label. The token travels only in X-Sim-Token on /sim/ requests.
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

beforeAll(async () => {
  const executablePath = chromiumBinary();
  const dir = await builtDashboard();
  const config = validateConfig({ extends: 'demo', clock: { type: 'sim' }, engine: { runner: 'inline' }, admin_token: TOKEN });
  sim = await startSimulator(config, { host: '127.0.0.1', port: 0, dashboard: dir });
  base = `http://127.0.0.1:${sim.server.port}`;
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 30_000 });
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  page.on('request', (r) => requests.push(r));
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

describe('the dashboard in chromium', () => {
  it('loads, lists the markets and shows the book the REST API shows', async () => {
    const res = await page.goto(`${base}/ui/`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('ringmatch dashboard');
    await until('the market list', () => page.locator('[data-testid=market-list] a').count(), (n) => n >= 6);
    for (const m of ['spot/BTC_USDT', 'spot/ETH_USDT', 'spot/ETH_BTC', 'futures/usdt/BTC_USDT', 'futures/btc/BTC_USD']) {
      expect(await page.locator(`[data-testid="market-${m}"]`).count(), m).toBe(1);
    }
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

  it('sent the token only in X-Sim-Token on control-plane requests, never in a URL', () => {
    const simCalls = requests.filter((r) => new URL(r.url()).pathname.startsWith('/sim/'));
    expect(simCalls.length).toBeGreaterThan(3);
    for (const r of requests) expect(r.url()).not.toContain(TOKEN);
    const after = simCalls.filter((r) => r.headers()['x-sim-token'] !== undefined);
    expect(after.length).toBeGreaterThan(0);
    for (const r of after) expect(r.headers()['x-sim-token']).toBe(TOKEN);
    for (const r of requests.filter((q) => new URL(q.url()).pathname.startsWith('/api/'))) expect(r.headers()['x-sim-token']).toBeUndefined();
  });
});
