// Takes README's screenshots of the dashboard against a running demo (`npm start`): places a few orders with the
// demo keys, as a bot would (alice rests a spot bid, buys a little, opens a long on the BTC_USDT perpetual and rests a
// futures bid, does the same on the first BTC_USDT delivery contract, buys an option and rests a bid on another; bob
// sells ETH at the market), lets the market maker trade for a while, then writes the spot market page, an option's
// page and alice's account page as PNGs with Debian's chromium (playwright-core).
//
//   node scripts/dashboard-screenshot.mjs [BASE_URL] [OUT_DIR]     (defaults http://127.0.0.1:8080, docs/images)
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const out = process.argv[3] ?? 'docs/images';

/** A request signed as Gate's clients sign it. */
async function signed(key, secret, method, route, body) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const ts = String(Math.floor(Date.now() / 1000));
  const hash = createHash('sha512').update(text).digest('hex');
  const sign = createHmac('sha512', secret).update([method, `/api/v4${route}`, '', hash, ts].join('\n')).digest('hex');
  const res = await fetch(`${base}/api/v4${route}`, { method, body: text === '' ? undefined : text,
    headers: { KEY: key, SIGN: sign, Timestamp: ts, 'Content-Type': 'application/json' } });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${route}: ${JSON.stringify(answer)}`);
  return answer;
}

const alice = ['demo-alice-key', 'demo-alice-secret'];
const bob = ['demo-bob-key', 'demo-bob-secret'];
const book = await (await fetch(`${base}/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=1`)).json();
const ask = book.asks[0][0];
await signed(...alice, 'POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.05', price: String(Math.floor(Number(book.bids[0][0]) * 0.998)) });
await signed(...alice, 'POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.02', price: ask, time_in_force: 'ioc' });
const fbook = await (await fetch(`${base}/api/v4/futures/usdt/order_book?contract=BTC_USDT&limit=1`)).json();
await signed(...alice, 'POST', '/futures/usdt/orders', { contract: 'BTC_USDT', size: 40, price: '0', tif: 'ioc' });
await signed(...alice, 'POST', '/futures/usdt/orders', { contract: 'BTC_USDT', size: 20, price: String(Math.floor(Number(fbook.bids[0].p) * 0.998)) });
const delivery = (await (await fetch(`${base}/api/v4/delivery/usdt/contracts`)).json())[0].name;
const dbook = await (await fetch(`${base}/api/v4/delivery/usdt/order_book?contract=${delivery}&limit=1`)).json();
await signed(...alice, 'POST', '/delivery/usdt/orders', { contract: delivery, size: 30, price: dbook.asks[0].p, tif: 'ioc' });
await signed(...alice, 'POST', '/delivery/usdt/orders', { contract: delivery, size: 10, price: String(Math.floor(Number(dbook.bids[0].p) * 0.998)) });
const options = await (await fetch(`${base}/api/v4/options/contracts?underlying=BTC_USDT`)).json();
// The call of the first expiry nearest the money, and the put of its strike.
const near = (o) => Math.abs(Number(o.strike_price) - Number(ask));
const call = options.filter((o) => o.is_call && o.expiration_time === options[0].expiration_time).sort((a, b) => near(a) - near(b))[0];
const put = options.find((o) => !o.is_call && o.expiration_time === call.expiration_time && o.strike_price === call.strike_price) ?? options[1];
const cbook = await (await fetch(`${base}/api/v4/options/order_book?contract=${call.name}&limit=1`)).json();
await signed(...alice, 'POST', '/options/orders', { contract: call.name, size: 2, price: cbook.asks[0].p, tif: 'ioc' });
const pbook = await (await fetch(`${base}/api/v4/options/order_book?contract=${put.name}&limit=1`)).json();
await signed(...alice, 'POST', '/options/orders', { contract: put.name, size: 1, price: String(Math.floor(Number(pbook.bids[0].p) * 0.9 * 10) / 10), tif: 'gtc' });
await signed(...bob, 'POST', '/spot/orders', { currency_pair: 'ETH_USDT', side: 'sell', amount: '0.5', price: '0', type: 'market', time_in_force: 'ioc' });
process.stderr.write('orders placed; letting the market maker trade for 40 s\n');
await sleep(40_000);

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  await page.goto(`${base}/ui/#/spot/BTC_USDT`);
  await page.waitForSelector('[data-testid=order-book] tbody.bids tr');
  await page.waitForSelector('[data-testid=trades] tbody tr');
  await sleep(1500);
  await page.screenshot({ path: path.join(out, 'dashboard.png') });
  await page.goto(`${base}/ui/#/options/${call.name}`);
  await page.waitForSelector('[data-testid=order-book] tbody.bids tr');
  await page.waitForSelector('[data-testid=trades] tbody tr');
  await sleep(1500);
  await page.screenshot({ path: path.join(out, 'dashboard-options.png') });
  await page.goto(`${base}/ui/#/account/10001`);
  await page.waitForSelector('[data-testid=options-positions-usdt] tbody tr');
  await sleep(1000);
  await page.screenshot({ path: path.join(out, 'dashboard-account.png'), fullPage: true });
  process.stderr.write(`wrote ${out}/dashboard.png, ${out}/dashboard-options.png and ${out}/dashboard-account.png\n`);
} finally {
  await browser.close();
}
