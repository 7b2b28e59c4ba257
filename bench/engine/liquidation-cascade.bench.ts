/**
 * `npm run bench:liquidation [-- --json] [--positions N] [--seed S]`: a liquidation cascade through the same
 * futures services the server runs (src/engine/futures, on an InlineGateway with a simulated clock).
 *
 * Setup (seeded): N leveraged positions (default 10,000) on a linear BTC_USDT perpetual, one per user, in pairs
 * (a long and a short opened against each other at 60,000), sizes 1–500 contracts, leverage drawn from
 * 2x–100x, one in ten cross margined; each user funded with the position's initial margin plus 10–50 % and the
 * fees. A maker then quotes the book around the moved price (100 levels a side, 12 USDT apart, N / 10 contracts
 * each: about a tenth of what gets liquidated), and the insurance fund holds 100 USDT per position.
 *
 * The move: the index (and with the basis cap 0, the mark) falls 10 % at once. Measured: wall time from the move
 * until no position is liquidatable (every account safe), with every command of the cascade (cancels,
 * liquidations, the liquidator's book closes, auto-deleveraging) applied by the engine; printed: positions
 * liquidated, ADL closes, commands issued, passes, the insurance fund before and after.
 *
 * Output: a header (machine, Node, date, command), then a table; with `--json` exactly one JSON array on stdout.
 */
import { Command, CommandType } from '../../src/core/command.js';
import { SimClock } from '../../src/core/clock.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import { formatSigned } from '../../src/core/futures/futures-math.js';
import { assertFuturesInvariants } from '../../src/core/futures/futures-setup.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { INSURANCE_UID } from '../../src/core/ledger/futures-funds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { anyLiquidatable } from '../../src/engine/futures/futures-liquidator.js';
import { FuturesServices } from '../../src/engine/futures/futures-services.js';
import { InlineGateway } from '../../src/engine/gateway.js';
import { exitWithUsage } from '../help.js';
import { machineInfo, machineLines } from '../machine.js';

exitWithUsage(`usage: npm run bench:liquidation -- [--json] [--positions N] [--seed S]

A liquidation cascade through the server's futures services: N leveraged positions, a 10 % mark move, the time
until every account is safe (liquidations, the liquidator's book closes, auto-deleveraging).
  --json         exactly one JSON document on stdout (logs on stderr); default: a table
  --positions N  open positions before the move (default 10000)
  --seed S       the seed of sizes, leverages and margins (default 14)
  --help, -h     this text
Figures and method: docs/futures.md (Prices, funding and liquidation), README.md.
`);

const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const argValue = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const POSITIONS = Math.max(2, Math.floor(Number(argValue('--positions') ?? 10_000) / 2) * 2);
const SEED = Number(argValue('--seed') ?? 14);
const log = (s: string): void => { process.stderr.write(`${s}\n`); };

const P = 60_000_00; // ticks of 0.01
const MAKER = POSITIONS + 1;
const LEVERAGES = [2, 3, 5, 10, 15, 20, 25, 33, 50, 75, 100];
const MOVE = 0.9;
const T0 = Date.UTC(2026, 0, 1) * 1000;
const SCALE = 10n ** 8n; // USDT units
/** Contracts per maker level (100 levels a side) and the insurance fund per position (USDT). */
const DEPTH_LOTS = POSITIONS / 10;
const FUND_PER_POSITION = 100n;

function definition(): ExchangeDefinition {
  return {
    currencies: [{ code: 'USDT', scale: 8, maxSupply: '100000000000000' }],
    markets: [],
    users: Array.from({ length: MAKER }, (_, i) => ({ uid: i + 1 })),
    futures: { contracts: [{
      name: 'BTC_USDT', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1', mark_price_round: '0.01',
      leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075',
      risk_limit_base: '1000000', risk_limit_step: '1000000', risk_limit_max: '8000000', order_size_max: 1_000_000, orders_limit: 1000,
    }] },
  };
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const header = `ringmatch liquidation cascade: ${POSITIONS.toLocaleString('en-US')} positions, a ${Math.round((1 - MOVE) * 100)} % mark move\n${machineLines(machine)}`;
  log(header);
  const clock = new SimClock(T0);
  const def = definition();
  const gw = new InlineGateway(def, clock);
  const ex = gw.exchange;
  const svc = new FuturesServices(gw, { checkMs: 0, markBasisCap: 0n });
  const market = ex.futures.marketOf[0]!;
  const cur = ex.futures.settleCur[0]!;
  const c = new Command();
  const run = (fill: (x: Command) => void): ResultCode => {
    c.clear();
    fill(c);
    let code: ResultCode = ResultCode.Ok;
    gw.submit(c, (r) => { code = r; });
    return code;
  };
  const must = (code: ResultCode, what: string): void => {
    if (code !== ResultCode.Ok) throw new Error(`${what}: code ${code}`);
  };
  const credit = (uid: number, units: bigint): void => must(run((x) => {
    x.type = CommandType.Credit; x.uid = uid; x.kind = AccountKind.Futures; x.sub = cur; x.currency = cur; x.text = units.toString();
  }), `credit ${uid}`);
  const order = (uid: number, side: number, lots: number, price: number, tif: number): ResultCode => run((x) => {
    x.type = CommandType.PlaceOrder; x.uid = uid; x.market = market; x.kind = AccountKind.Futures; x.sub = cur; x.side = side;
    x.amount = lots; x.price = price; x.orderType = OrderType.Limit; x.tif = tif;
  });
  const setup0 = performance.now();
  await svc.setIndexPrice(0, P);
  const rng = new Prng(SEED);
  let cross = 0;
  for (let pair = 0; pair < POSITIONS / 2; pair++) {
    const size = 1 + rng.nextInt(500);
    const value = BigInt(size) * 6n * SCALE; // size × 0.0001 × 60000 USDT
    for (const uid of [2 * pair + 1, 2 * pair + 2]) {
      const lev = LEVERAGES[rng.nextInt(LEVERAGES.length)]!;
      const isCross = rng.nextInt(10) === 0;
      // Initial margin plus 10–50 % and twice the taker fee.
      const margin = (value * BigInt(110 + rng.nextInt(41))) / (100n * BigInt(lev)) + (value * 2n * 75n) / 100_000n + 1n;
      credit(uid, margin);
      must(run((x) => {
        x.type = CommandType.FuturesSetLeverage; x.uid = uid; x.market = market; x.price = isCross ? 0 : lev; x.amount = isCross ? lev : 0;
      }), `leverage ${uid}`);
      if (isCross) cross++;
    }
    must(order(2 * pair + 2, Side.Sell, size, P, TimeInForce.Gtc), `short ${2 * pair + 2}`);
    must(order(2 * pair + 1, Side.Buy, size, P, TimeInForce.Ioc), `long ${2 * pair + 1}`);
  }
  const open = ex.futures.positions.openRows(market).length;
  // The maker re-quotes around the moved price; the insurance fund.
  credit(MAKER, 100_000_000n * SCALE);
  must(run((x) => {
    x.type = CommandType.FuturesSetLeverage; x.uid = MAKER; x.market = market; x.price = 0; x.amount = 100;
  }), 'maker leverage');
  const moved = Math.round((P * MOVE) / 10) * 10;
  for (let i = 1; i <= 100; i++) {
    must(order(MAKER, Side.Buy, DEPTH_LOTS, moved - i * 120, TimeInForce.Gtc), 'maker bid');
    must(order(MAKER, Side.Sell, DEPTH_LOTS, moved + i * 120, TimeInForce.Gtc), 'maker ask');
  }
  credit(INSURANCE_UID, BigInt(POSITIONS) * FUND_PER_POSITION * SCALE);
  const fundBefore = ex.ledger.futures.insuranceFund(cur);
  const setupMs = performance.now() - setup0;
  log(`setup: ${open.toLocaleString('en-US')} open positions (${cross} cross), ${(setupMs / 1000).toFixed(1)} s`);
  const before = { ...svc.stats };
  // The move, and every pass it makes due, until no position is liquidatable.
  const t0 = performance.now();
  clock.advanceBy(1_000_000);
  await svc.setIndexPrice(0, moved);
  let rounds = 0;
  while (anyLiquidatable(ex) && rounds < 1000) {
    rounds++;
    clock.advanceBy(1_000_000);
    await svc.runNow();
  }
  const wallMs = performance.now() - t0;
  const safe = !anyLiquidatable(ex);
  assertFuturesInvariants(ex);
  const fundAfter = ex.ledger.futures.insuranceFund(cur);
  const s = svc.stats;
  const row = {
    scenario: 'liquidation-cascade', positions: open, cross_positions: cross, move_pct: -Math.round((1 - MOVE) * 100), seed: SEED,
    all_safe: safe, wall_ms: Number(wallMs.toFixed(1)), setup_ms: Number(setupMs.toFixed(1)),
    commands: s.commands - before.commands, liquidations: s.liquidations - before.liquidations, adl: s.adl - before.adl,
    book_closes: s.bookCloses - before.bookCloses, passes: s.passes - before.passes, extra_rounds: rounds,
    insurance_before: formatSigned(fundBefore, 8), insurance_after: formatSigned(fundAfter, 8),
    still_open: ex.futures.positions.openRows(market).length, ...machine,
  };
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify([row])}\n`);
    return;
  }
  const lines = [
    header, '',
    `positions             ${row.positions.toLocaleString('en-US')} (${row.cross_positions} cross), seed ${row.seed}`,
    `mark move             ${row.move_pct} % (index and mark 60000 → ${formatSigned(BigInt(moved), 2)})`,
    `time until all safe   ${(row.wall_ms / 1000).toFixed(2)} s wall (${row.passes} passes${rounds > 0 ? `, ${rounds} after the first clock step` : ''}); all safe: ${row.all_safe}`,
    `commands issued       ${row.commands.toLocaleString('en-US')}`,
    `liquidations          ${row.liquidations.toLocaleString('en-US')}`,
    `ADL closes            ${row.adl.toLocaleString('en-US')}`,
    `liquidator book closes ${row.book_closes}`,
    `insurance fund        ${row.insurance_before} → ${row.insurance_after} USDT`,
    `positions left open   ${row.still_open.toLocaleString('en-US')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
