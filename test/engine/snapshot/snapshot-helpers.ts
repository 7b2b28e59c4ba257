/** Engines, command streams and temp dirs for snapshot tests. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SimClock } from '../../../src/core/clock.js';
import { Command, CommandType } from '../../../src/core/command.js';
import type { ExchangeDefinition } from '../../../src/core/exchange/exchange-definition.js';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../../src/core/matching/order-types.js';
import { type BookFactory, InlineEngine } from '../../../src/engine/inline-engine.js';
import type { JournalWriter } from '../../../src/engine/journal/writer.js';
import { ENGINE_DEFINITION, EngineStream, USERS } from '../../support/engine-stream.js';

export const T0 = 1_700_000_000_000_000;

/** ENGINE_DEFINITION plus a wide currency (18 decimals, BigInt amounts) with a market, and small windows. */
export const SNAPSHOT_DEFINITION: ExchangeDefinition = {
  ...ENGINE_DEFINITION,
  currencies: [...ENGINE_DEFINITION.currencies, { code: 'WIDE', scale: 18, maxSupply: '1000000000000' }],
  markets: [...ENGINE_DEFINITION.markets, { id: 'WIDE_USDT', base: 'WIDE', quote: 'USDT', precision: 1, amount_precision: 2 }],
  users: [...(ENGINE_DEFINITION.users ?? []), { uid: 201, main_uid: 101 }],
  accountBookCapacity: 700,
  finishedOrders: 400,
  trades: 300,
};

/** Wide-currency traffic: big credits (as text), transfers, and limit orders (some icebergs) in WIDE_USDT. */
function wideCommands(i: number): Command[] {
  const out: Command[] = [];
  const uid = USERS[i % USERS.length]!;
  const c = new Command();
  if (i % 4 === 0) {
    c.type = CommandType.Credit; c.uid = USERS[(i / 4) % USERS.length]!; c.kind = AccountKind.Spot; c.currency = 3;
    c.text = `${123_456_789_012_345_678_901n + BigInt(i)}`;
  } else if (i % 4 === 1) {
    c.type = CommandType.Transfer; c.uid = uid; c.kind = AccountKind.Spot; c.currency = 3; c.text = '1000000000000000000';
    c.toUid = 201; c.toKind = AccountKind.Spot;
  } else {
    c.type = CommandType.PlaceOrder; c.uid = uid; c.market = 2; c.orderType = OrderType.Limit; c.tif = TimeInForce.Gtc;
    c.side = i % 2 === 0 ? Side.Buy : Side.Sell; c.price = 90 + (i % 21); c.amount = 1 + (i % 50);
    c.iceberg = i % 3 === 0 ? 3 : 0; c.stpAct = 0;
  }
  out.push(c);
  return out;
}

/** `n` commands: the openings, then the seeded stream with wide traffic every 10th command. */
export function commandStream(seed: number, n: number): Command[] {
  const s = new EngineStream(seed);
  const out = [...s.openings()];
  for (let i = 0; out.length < n; i++) out.push(...(i % 10 === 0 ? wideCommands(i / 10) : [s.next()]));
  return out.slice(0, n);
}

/** An engine on SNAPSHOT_DEFINITION with its own SimClock. */
export function makeEngine(options: { bookFactory?: BookFactory; journal?: JournalWriter; start?: number } = {}): {
  engine: InlineEngine; clock: SimClock;
} {
  const clock = new SimClock(options.start ?? T0);
  return { engine: new InlineEngine(SNAPSHOT_DEFINITION, { clock, ...options }), clock };
}

/** Submits copies of `cmds`, the clock moving 1 µs before each; `after` runs after each submit. */
export function drive(engine: InlineEngine, clock: SimClock, cmds: readonly Command[], after?: () => void): void {
  for (const c of cmds) {
    clock.advanceBy(1);
    engine.submit(new Command().copyFrom(c));
    after?.();
  }
}

/** Temp dirs; `cleanup()` removes every dir made so far. */
export function tempDirs(): { make: () => Promise<string>; cleanup: () => Promise<void> } {
  const made: string[] = [];
  return {
    make: async () => {
      const d = await mkdtemp(path.join(os.tmpdir(), 'ringmatch-snapshot-'));
      made.push(d);
      return d;
    },
    cleanup: async () => {
      await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
    },
  };
}
