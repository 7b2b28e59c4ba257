// Differential and fuzz tests: NaiveOrderBook and ArrayOrderBook agree command by command on seeded random streams.
import { describe, expect, it } from 'vitest';
import { defineMarket } from '../../../src/core/market.js';
import { BookEvents } from '../../../src/core/matching/book-events.js';
import type { OrderBook } from '../../../src/core/matching/order-book.js';
import { OrderView, PlaceOrder, Side } from '../../../src/core/matching/order-types.js';
import { ALL_RESULT_CODES, ResultCode } from '../../../src/core/result-code.js';
import { applyCommand, type BookCommand, BookCommandGen, GEN_USERS } from '../../support/book-command-gen.js';
import { BOOKS, bookFactory, readDepth } from '../../support/books.js';

/** Whole ticks and lots; a minimum notional and a maximum lot size that random orders sometimes miss. */
const PROP = defineMarket({
  id: 'PROP_USD', base: 'PROP', quote: 'USD', precision: 0, amount_precision: 0,
  min_base_amount: '1', max_base_amount: '250', min_quote_amount: '300',
});

const SEEDS = [1, 0x5eed, 20240611];
const COMMANDS = 20_000;
const CHECK_EVERY = 100;

function sameEvents(a: BookEvents, b: BookEvents): boolean {
  if (a.count !== b.count) return false;
  for (let i = 0; i < a.count; i++) {
    if (a.kind[i] !== b.kind[i] || a.code[i] !== b.code[i] || a.orderId[i] !== b.orderId[i] || a.userId[i] !== b.userId[i]
      || a.makerOrderId[i] !== b.makerOrderId[i] || a.makerUserId[i] !== b.makerUserId[i] || a.price[i] !== b.price[i]
      || a.lots[i] !== b.lots[i]) return false;
  }
  return true;
}

/** Full comparison of the observable state of two books. */
function expectSameState(step: number, a: OrderBook, b: OrderBook, ids: readonly number[]): void {
  a.assertInvariants();
  b.assertInvariants();
  const where = `after command ${step}`;
  expect(b.size, where).toBe(a.size);
  expect(b.bestBid(), where).toBe(a.bestBid());
  expect(b.bestAsk(), where).toBe(a.bestAsk());
  expect(readDepth(b, Side.Buy, 10_000), where).toEqual(readDepth(a, Side.Buy, 10_000));
  expect(readDepth(b, Side.Sell, 10_000), where).toEqual(readDepth(a, Side.Sell, 10_000));
  for (let u = 1; u <= GEN_USERS; u++) expect(b.openOrders(u), `${where}, user ${u}`).toEqual(a.openOrders(u));
  const va = new OrderView();
  const vb = new OrderView();
  for (const id of ids) {
    const found = a.order(id, va);
    expect(b.order(id, vb), `${where}, order ${id}`).toBe(found);
    if (found) expect({ ...vb }, `${where}, order ${id}`).toEqual({ ...va });
  }
  expect(b.stateHash(), where).toBe(a.stateHash());
}

const idsOf = (book: OrderBook): number[] => {
  const ids: number[] = [];
  for (let u = 1; u <= GEN_USERS; u++) ids.push(...book.openOrders(u));
  return ids;
};

describe('differential: NaiveOrderBook vs ArrayOrderBook', () => {
  const naive = bookFactory('NaiveOrderBook');
  const array = bookFactory('ArrayOrderBook');

  for (const seed of SEEDS) {
    it(`agrees on codes, events and size after every command and on full state every ${CHECK_EVERY} (seed ${seed}, ${COMMANDS} commands)`, () => {
      const gen = new BookCommandGen(seed);
      const a = naive(PROP);
      const b = array(PROP);
      const outA = new BookEvents(4);
      const outB = new BookEvents(4);
      const scratch = new PlaceOrder();
      const seen = new Set<number>();
      let fills = 0;
      for (let step = 1; step <= COMMANDS; step++) {
        const c = gen.next();
        outA.clear();
        outB.clear();
        const codeA = applyCommand(a, c, scratch, outA);
        const codeB = applyCommand(b, c, scratch, outB);
        if (codeA !== codeB || !sameEvents(outA, outB) || a.size !== b.size) {
          expect({ step, command: c, code: codeB, events: outB.toArray(), size: b.size })
            .toEqual({ step, command: c, code: codeA, events: outA.toArray(), size: a.size });
        }
        gen.observe(outA);
        const before = fills;
        for (let i = 0; i < outA.count; i++) if (outA.makerOrderId[i] !== 0) fills++;
        expect(outB.fills, `fill count after command ${step}`).toBe(fills - before);
        if (step % CHECK_EVERY === 0) {
          for (const id of idsOf(a)) seen.add(id);
          expectSameState(step, a, b, idsOf(a));
        }
      }
      expectSameState(COMMANDS, a, b, [...seen]);
      // The stream must actually exercise matching.
      expect(fills).toBeGreaterThan(COMMANDS / 10);
    });
  }
});

const isKnownCode = (code: number): boolean => (ALL_RESULT_CODES as readonly number[]).includes(code);

function describeCommand(c: BookCommand): string {
  return JSON.stringify(c, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
}

describe('fuzz: garbage commands never corrupt a book', () => {
  for (const [name, create] of BOOKS) {
    it(`${name}: keeps its invariants, and every rejection changes nothing (seed 77, 6000 commands)`, () => {
      const gen = new BookCommandGen(77, { malformed: 0.5 });
      const book = create(PROP);
      const out = new BookEvents(4);
      const scratch = new PlaceOrder();
      let rejected = 0;
      let accepted = 0;
      for (let step = 1; step <= 6000; step++) {
        const c = gen.next();
        const hash = book.stateHash();
        const size = book.size;
        out.clear();
        const code = applyCommand(book, c, scratch, out);
        gen.observe(out);
        const where = `command ${step}: ${describeCommand(c)}`;
        expect(isKnownCode(code), where).toBe(true);
        if (code === ResultCode.Ok) {
          accepted++;
        } else {
          rejected++;
          expect(out.count, where).toBe(0);
          expect(book.size, where).toBe(size);
          expect(book.stateHash(), where).toBe(hash);
        }
        book.assertInvariants();
      }
      expect(rejected).toBeGreaterThan(500);
      expect(accepted).toBeGreaterThan(500);
    });
  }
});
