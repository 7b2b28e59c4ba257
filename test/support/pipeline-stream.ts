// Seeded random engine commands of every kind, shaped to stress a pipelining runner: many users on four
// markets; orders on every account (spot, isolated margin with flags, cross margin, unified); amends that
// come back to the same few orders again and again (including no-change and below-filled rejections);
// cancels and cancel-alls; credits, debits and transfers between accounts; withdrawal holds, settles and
// releases; users added at run time; unified and margin loans, mode switches and interest accruals; the
// fronts' records, alone (PutRecords) or riding on other commands (applied only when those succeed).
// The inline runner is the oracle: a pipelining runner must give the same codes and the same state hash.
// Amends and cancels aim at real orders: `next(ex)` reads the oracle's exchange (the inline run that
// generates the stream) for the latest orders' owners and markets, so most of them reach the book.
import type { Clock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import type { Exchange } from '../../src/core/exchange/exchange.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import { OrderFlag } from '../../src/core/exchange/order-store.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType, Side, StpAct, TimeInForce } from '../../src/core/matching/order-types.js';
import { Prng } from '../../src/core/prng.js';
import { LoanKind } from '../../src/core/unified/unified-state.js';

export const PIPE_USERS = [201, 202, 203, 204, 205, 206, 207, 208] as const;
/** uids AddUser commands pick from (some collide with existing users on purpose). */
const NEW_USERS_FROM = 300;

export const PIPE_DEFINITION: ExchangeDefinition = {
  currencies: [
    { code: 'USDT', scale: 4, maxSupply: '100000000000' },
    { code: 'BTC', scale: 3, maxSupply: '100000000000' },
    { code: 'ETH', scale: 3, maxSupply: '100000000000' },
  ],
  markets: [
    { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 2, fee: '0.2', maker_fee_rate: '0.1' },
    { id: 'ETH_USDT', base: 'ETH', quote: 'USDT', precision: 2, amount_precision: 1, fee: '0.15' },
    { id: 'ETH_BTC', base: 'ETH', quote: 'BTC', precision: 2, amount_precision: 1, fee: '0.1' },
    { id: 'BTC_ETH', base: 'BTC', quote: 'ETH', precision: 1, amount_precision: 2, fee: '0.3', maker_fee_rate: '0' },
  ],
  users: PIPE_USERS.map((uid) => ({ uid })),
  stp_groups: [{ id: 7, users: [201, 202] }, { id: 9, users: [203] }],
  unified: { currencies: { USDT: {}, BTC: { index_price: '1000' }, ETH: { index_price: '200' } } },
};

/** Mid prices in ticks per market (trades happen often around them). */
const MID = [1000, 20000, 20, 50] as const;
/** Account kinds orders trade from, with the `sub` each needs for market m. */
const ACCOUNTS = [AccountKind.Spot, AccountKind.Margin, AccountKind.CrossMargin, AccountKind.Unified] as const;

/** A clock whose k-th read is T0 + k × stepUs: under any runner, the command with seq k gets the same time. */
export class StepClock implements Clock {
  #reads = 0;
  constructor(readonly t0: number, readonly stepUs: number) {}
  nowUs(): number {
    return this.t0 + this.stepUs * ++this.#reads;
  }
}

/** The deterministic stream: openings first, then `next()` forever. */
export class PipelineStream {
  readonly #r: Prng;
  #lastAmend = 0;
  #withdrawal = 1;
  #openWithdrawals: [number, number][] = [];
  #nextUser = NEW_USERS_FROM;

  constructor(seed: number) {
    this.#r = new Prng(seed);
  }

  /** Opening balances on every account of every user, and the platform's lending pools. @allocates */
  *openings(): Generator<Command> {
    for (let cur = 0; cur < 3; cur++) yield funds(CommandType.Credit, 0, AccountKind.Unified, 0, cur, cur === 0 ? 5e10 : 5e8);
    for (const uid of PIPE_USERS) {
      for (const kind of ACCOUNTS) {
        for (let m = 0; m < (kind === AccountKind.Margin ? 4 : 1); m++) {
          for (let cur = 0; cur < 3; cur++) yield funds(CommandType.Credit, uid, kind, kind === AccountKind.Margin ? m : 0, cur, cur === 0 ? 2e9 : 5e6);
        }
      }
    }
  }

  /**
   * The next random command (a fresh object), aiming amends and cancels at `ex`'s latest orders (the
   * exchange of the inline run applying the stream as it is generated). @allocates
   */
  next(ex: Exchange): Command {
    const c = this.#next(ex);
    const r = this.#r;
    if (c.type !== CommandType.PutRecords && r.chance(0.04)) c.record = this.#records();
    return c;
  }

  #next(ex: Exchange): Command {
    const r = this.#r;
    const k = r.nextInt(1000);
    if (k < 25) {
      const c = new Command();
      c.type = CommandType.PutRecords;
      c.record = r.chance(0.02) ? '{not json' : this.#records();
      return c;
    }
    if (k < 450) return this.#place();
    if (k < 680) return this.#amend(ex);
    if (k < 800) return this.#cancel(ex);
    if (k < 820) return this.#cancelAll();
    if (k < 880) return this.#funds();
    if (k < 920) return this.#withdraw();
    if (k < 935) return this.#addUser();
    if (k < 990) return this.#loan();
    return this.#unified();
  }

  /** A JSON object of 1–3 records over a small key space (so keys are overwritten and tombstoned). */
  #records(): string {
    const r = this.#r;
    const out: Record<string, unknown> = {};
    for (let i = 1 + r.nextInt(3); i > 0; i--) {
      const key = `t/${r.nextInt(40)}`;
      out[key] = r.chance(0.15) ? null : { v: r.nextInt(1_000_000), s: 'ü'.repeat(r.nextInt(3)) };
    }
    return JSON.stringify(out);
  }

  #user(): number {
    return PIPE_USERS[this.#r.nextInt(PIPE_USERS.length)]!;
  }

  #place(): Command {
    const r = this.#r;
    const c = new Command();
    c.type = CommandType.PlaceOrder;
    c.uid = this.#user();
    c.market = r.nextInt(4);
    const mid = MID[c.market]!;
    c.side = r.chance(0.5) ? Side.Buy : Side.Sell;
    c.orderType = r.chance(0.12) ? OrderType.Market : OrderType.Limit;
    c.tif = c.orderType === OrderType.Market ? (r.chance(0.7) ? TimeInForce.Ioc : TimeInForce.Fok) : 1 + r.nextInt(4);
    const spread = Math.max(2, Math.floor(mid / 50));
    c.price = c.orderType === OrderType.Market ? 0 : Math.max(1, mid - spread + r.nextInt(2 * spread + 1));
    c.amount = c.orderType === OrderType.Market && c.side === Side.Buy ? 1 + r.nextInt(mid * 40) : 1 + r.nextInt(40);
    c.iceberg = c.orderType === OrderType.Limit && r.chance(0.15) ? 1 + r.nextInt(6) : 0;
    c.stpAct = (c.uid === 201 || c.uid === 202 || c.uid === 203) && r.chance(0.5) ? 1 + r.nextInt(3) : StpAct.None;
    const acct = r.nextInt(10);
    if (acct >= 6) {
      c.kind = ACCOUNTS[acct - 6]!;
      if (c.kind === AccountKind.Margin) c.sub = c.market;
      if (c.kind === AccountKind.Margin || c.kind === AccountKind.CrossMargin) c.toKind = r.nextInt(4) & (OrderFlag.AutoBorrow | OrderFlag.AutoRepay);
    }
    if (r.chance(0.01)) c.amount = 10_000_000_000; // beyond every balance
    return c;
  }

  /** Points `c` at order `id` of `ex` (its owner and market), or at a random one when `ex` has no record of it. */
  #target(ex: Exchange, c: Command, id: number): void {
    const O = ex.orders;
    const rec = O.find(id);
    c.orderId = id;
    c.uid = rec >= 0 && !this.#r.chance(0.05) ? O.uid[rec]! : this.#user();
    c.market = rec >= 0 ? O.market[rec]! : this.#r.nextInt(4);
  }

  /** One of the 12 latest order ids. */
  #recent(ex: Exchange): number {
    return Math.max(1, ex.lastOrderId - this.#r.nextInt(12));
  }

  #amend(ex: Exchange): Command {
    const r = this.#r;
    const c = new Command();
    c.type = CommandType.AmendOrder;
    // Half the time the same order as the last amend: back-to-back amends of one order in flight.
    this.#target(ex, c, this.#lastAmend > 0 && r.chance(0.5) ? this.#lastAmend : this.#recent(ex));
    this.#lastAmend = c.orderId;
    const mid = MID[c.market]!;
    const spread = Math.max(2, Math.floor(mid / 50));
    c.price = r.chance(0.5) ? Math.max(1, mid - spread + r.nextInt(2 * spread + 1)) : 0;
    c.amount = c.price === 0 || r.chance(0.5) ? 1 + r.nextInt(50) : 0;
    return c;
  }

  #cancel(ex: Exchange): Command {
    const c = new Command();
    c.type = CommandType.CancelOrder;
    this.#target(ex, c, this.#recent(ex));
    return c;
  }

  #cancelAll(): Command {
    const c = new Command();
    c.type = CommandType.CancelAll;
    c.uid = this.#r.chance(0.1) ? 0 : this.#user();
    c.market = this.#r.nextInt(4);
    c.side = this.#r.nextInt(3);
    return c;
  }

  #funds(): Command {
    const r = this.#r;
    const roll = r.nextInt(3);
    const kind = ACCOUNTS[r.nextInt(4)]!;
    const sub = kind === AccountKind.Margin ? r.nextInt(4) : 0;
    const cur = r.nextInt(3);
    if (roll === 0) return funds(CommandType.Credit, this.#user(), kind, sub, cur, 1 + r.nextInt(1_000_000));
    if (roll === 1) return funds(CommandType.Debit, this.#user(), kind, sub, cur, 1 + r.nextInt(50_000_000));
    const c = funds(CommandType.Transfer, this.#user(), kind, sub, cur, 1 + r.nextInt(5_000_000));
    c.toUid = r.chance(0.5) ? c.uid : this.#user();
    c.toKind = ACCOUNTS[r.nextInt(4)]!;
    c.toSub = c.toKind === AccountKind.Margin ? r.nextInt(4) : 0;
    return c;
  }

  #withdraw(): Command {
    const r = this.#r;
    const c = new Command();
    if (this.#openWithdrawals.length === 0 || r.chance(0.4)) {
      c.type = CommandType.WithdrawHold;
      c.uid = this.#user();
      c.orderId = this.#withdrawal++;
      c.currency = r.nextInt(3);
      c.amount = 1 + r.nextInt(2_000_000);
      this.#openWithdrawals.push([c.orderId, c.uid]);
      return c;
    }
    const [id, uid] = this.#openWithdrawals.splice(r.nextInt(this.#openWithdrawals.length), 1)[0]!;
    c.uid = uid;
    c.orderId = id;
    if (r.chance(0.5)) {
      c.type = CommandType.WithdrawSettle;
      c.amount = r.nextInt(1000);
    } else {
      c.type = CommandType.WithdrawRelease;
    }
    return c;
  }

  #addUser(): Command {
    const r = this.#r;
    const c = new Command();
    c.type = CommandType.AddUser;
    c.uid = r.chance(0.2) ? this.#user() : this.#nextUser++;
    c.toUid = r.chance(0.3) ? this.#user() : 0;
    return c;
  }

  #loan(): Command {
    const r = this.#r;
    const c = new Command();
    c.uid = this.#user();
    c.side = r.chance(0.5) ? LoanKind.Manual : LoanKind.Auto;
    if (r.chance(0.5)) {
      c.type = r.chance(0.6) ? CommandType.UnifiedBorrow : CommandType.UnifiedRepay;
      c.currency = r.nextInt(3);
    } else {
      c.type = r.chance(0.6) ? CommandType.MarginBorrow : CommandType.MarginRepay;
      if (r.chance(0.5)) {
        c.kind = AccountKind.CrossMargin;
        c.currency = r.nextInt(3);
      } else {
        c.market = r.nextInt(4);
        c.currency = r.nextInt(3);
      }
    }
    c.amount = c.currency === 0 ? 1 + r.nextInt(5_000_000) : 1 + r.nextInt(5_000);
    if (c.type === CommandType.UnifiedRepay || c.type === CommandType.MarginRepay) c.amount = r.chance(0.3) ? 0 : c.amount;
    return c;
  }

  #unified(): Command {
    const r = this.#r;
    const c = new Command();
    if (r.chance(0.3)) {
      c.type = CommandType.UnifiedAccrue;
      return c;
    }
    c.type = CommandType.UnifiedSetMode;
    c.uid = this.#user();
    c.side = r.nextInt(4);
    c.price = r.nextInt(16);
    return c;
  }
}

function funds(type: number, uid: number, kind: number, sub: number, cur: number, amount: number): Command {
  const c = new Command();
  c.type = type; c.uid = uid; c.kind = kind; c.sub = sub; c.currency = cur; c.amount = amount;
  return c;
}

/** Commands (unstamped copies) and each one's result code under the oracle. */
export interface PipelineChunk {
  readonly commands: Command[];
  readonly codes: number[];
}

/**
 * `PipelineStream(seed)` applied to `engine` (the inline oracle) as it is generated, in chunks: the openings,
 * then `n` random commands per `next(n)`. Only the chunk asked for is held, so streams of any length fit.
 */
export class PipelineGenerator {
  readonly #s: PipelineStream;
  constructor(seed: number, readonly engine: { exchange: Exchange; submit(c: Command): number }) {
    this.#s = new PipelineStream(seed);
  }

  /** The opening credits. @allocates */
  openings(): PipelineChunk {
    const out: PipelineChunk = { commands: [], codes: [] };
    for (const c of this.#s.openings()) this.#run(c, out);
    return out;
  }

  /** The next `n` random commands. @allocates */
  next(n: number): PipelineChunk {
    const out: PipelineChunk = { commands: [], codes: [] };
    for (let i = 0; i < n; i++) this.#run(this.#s.next(this.engine.exchange), out);
    return out;
  }

  #run(c: Command, out: PipelineChunk): void {
    out.commands.push(new Command().copyFrom(c));
    out.codes.push(this.engine.submit(c));
  }
}

/**
 * The openings and `n` random commands of `PipelineStream(seed)`, applied to `engine` (the inline oracle)
 * as they are generated: the commands (unstamped copies) and each one's result code. @allocates
 */
export function generatePipeline(seed: number, n: number, engine: { exchange: Exchange; submit(c: Command): number }): PipelineChunk {
  const g = new PipelineGenerator(seed, engine);
  const open = g.openings();
  const rest = g.next(n);
  return { commands: open.commands.concat(rest.commands), codes: open.codes.concat(rest.codes) };
}
