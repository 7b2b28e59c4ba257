// Price triggers rebuilt from their records at start-up (what a restart sees): a trigger the last price reached
// while nothing fired it (a crash between a journaled trade and its firing) fires at once, exactly once; a
// trigger whose firing group was journaled but whose placement's label was not stays failed and never fires
// again; one past its expiry expires at its expiry time; ids continue after the highest recorded.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { ResultCode } from '../../src/core/result-code.js';
import { InlineGateway } from '../../src/engine/gateway.js';
import { putRecords } from '../../src/engine/records.js';
import { finishedRecord, priceOrderKey, priceOrderRecord } from '../../src/api/price-orders/price-order-record.js';
import type { PriceOrder } from '../../src/api/price-orders/price-order-store.js';
import { PriceTriggers } from '../../src/api/price-orders/price-triggers.js';
import { parseCreateOrder } from '../../src/gate/spot-order-request.js';
import { ENGINE_DEFINITION } from '../support/engine-stream.js';

const T0 = 1_767_225_600_000_000;
const SELLER = 104;
const BUYER = 105;
const OWNER = 106;

function exchange(): { gw: InlineGateway; clock: SimClock } {
  const clock = new SimClock(T0);
  const gw = new InlineGateway(ENGINE_DEFINITION, clock);
  for (const uid of [SELLER, BUYER, OWNER]) {
    for (const [currency, amount] of [[0, 100_000_000], [1, 1_000_000]] as const) {
      const c = new Command();
      c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Spot; c.currency = currency; c.amount = amount;
      gw.submit(c, (code) => expect(code).toBe(ResultCode.Ok));
    }
  }
  return { gw, clock };
}

function place(gw: InlineGateway, uid: number, body: Record<string, string>): void {
  const c = new Command();
  expect(parseCreateOrder(gw.exchange, uid, { currency_pair: 'BTC_USDT', ...body }, c)).toBe(ResultCode.Ok);
  gw.submit(c, (code) => expect(code).toBe(ResultCode.Ok));
}

/** A trade at `price` on BTC_USDT. */
function tradeAt(gw: InlineGateway, price: string): void {
  place(gw, SELLER, { side: 'sell', amount: '0.01', price });
  place(gw, BUYER, { side: 'buy', amount: '0.01', price, time_in_force: 'ioc' });
}

const trigger = (id: number, price: string, rule: '>=' | '<=', expiration = 0, amount = '0.01'): PriceOrder => ({
  product: 'spot', priceType: 0, id, uid: OWNER, market: 0, triggerTicks: Number(price) * 10, triggerPrice: price, rule, expiration, createUs: T0,
  finishUs: 0, status: 'open', firedOrderId: 0, reason: '',
  put: { type: 'limit', side: 'buy', price: '900', amount, account: 'normal', time_in_force: 'gtc', auto_borrow: false, auto_repay: false, text: 't-trig' },
});

/** Puts records as a journal would hold them, with no trigger service watching. */
function record(gw: InlineGateway, puts: Record<string, unknown>): void {
  putRecords(gw, puts, (code) => expect(code).toBe(ResultCode.Ok));
}

const ownOrders = (gw: InlineGateway): number => gw.exchange.orders.openOf(OWNER, 0).length;

describe('price triggers at start-up', () => {
  it('fires, once, a trigger the last price reached while nothing fired it', () => {
    const { gw } = exchange();
    tradeAt(gw, '1000');
    const o = trigger(1_000_005, '1010', '>=');
    record(gw, { [priceOrderKey(o.id)]: priceOrderRecord(gw.exchange, o) });
    tradeAt(gw, '1010');
    expect(ownOrders(gw)).toBe(0);

    const t = new PriceTriggers(gw);
    try {
      const fired = t.store.get(o.id)!;
      expect(fired).toMatchObject({ status: 'finish', reason: '' });
      expect(fired.firedOrderId).toBeGreaterThan(0);
      expect(gw.exchange.records.get(priceOrderKey(o.id))!.orderId).toBe(fired.firedOrderId);
      expect(ownOrders(gw)).toBe(1);
      tradeAt(gw, '1020');
      expect(ownOrders(gw)).toBe(1);
      expect(t.store.issueId()).toBe(o.id + 1);
    } finally {
      t.close();
    }
  });

  it('keeps failed, never firing again, a trigger whose firing group was journaled without its label', () => {
    const { gw } = exchange();
    tradeAt(gw, '1000');
    const o = trigger(1_000_001, '990', '<=');
    record(gw, { [priceOrderKey(o.id)]: priceOrderRecord(gw.exchange, o) });
    tradeAt(gw, '990');
    // The firing group's first command (the placement itself was refused, so its record never landed).
    record(gw, { [priceOrderKey(o.id)]: finishedRecord(gw.exchange, o, 'failed', T0) });
    const t = new PriceTriggers(gw);
    try {
      tradeAt(gw, '980');
      expect(t.store.get(o.id)).toMatchObject({ status: 'failed', reason: '', firedOrderId: 0 });
      expect(ownOrders(gw)).toBe(0);
    } finally {
      t.close();
    }
  });

  it('expires at its expiry time a trigger the clock passed meanwhile', () => {
    const { gw, clock } = exchange();
    const o = trigger(1_000_002, '2000', '>=', 60);
    record(gw, { [priceOrderKey(o.id)]: priceOrderRecord(gw.exchange, o) });
    clock.advanceBy(61_000_000);
    const t = new PriceTriggers(gw);
    try {
      expect(t.store.get(o.id)).toMatchObject({ status: 'expired', finishUs: T0 + 60_000_000 });
      expect(t.store.openOf(OWNER)).toEqual([]);
      expect(t.store.finishedOf(OWNER).map((f) => f.id)).toEqual([o.id]);
    } finally {
      t.close();
    }
  });
});
