// The embedded API answers with Gate's shapes and labels; README's example runs as written.
import { describe, expect, it } from 'vitest';
import type { SimConfig } from '../../src/sim/sim-config.js';
import { EmbeddedExchange, GateApiError } from '../../src/sim/embedded-exchange.js';

const CONFIG: SimConfig = {
  currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6,
    min_base_amount: '0.0001', min_quote_amount: '1', fee: '0.2', maker_fee_rate: '0.1' }],
  users: [{ uid: 10001, balances: { spot: { USDT: '100000', BTC: '2' } } },
    { uid: 10002, balances: { spot: { USDT: '50000' } } }],
  stp_groups: [{ id: 1, name: 'desk', users: [10001] }],
};

const balance = (ex: EmbeddedExchange, uid: number, cur: string): { available: string; locked: string } =>
  ex.spotAccounts(uid).find((a) => a.currency === cur) ?? { available: '0', locked: '0' };

function rejection(f: () => unknown): GateApiError {
  try { f(); } catch (e) { if (e instanceof GateApiError) return e; throw e; }
  throw new Error('expected a GateApiError');
}

describe('EmbeddedExchange', () => {
  it('runs README\'s example: a crossing buy fills at the maker price with fees in the received currency', () => {
    const ex = EmbeddedExchange.create(CONFIG);
    const ask = ex.createOrder(10001, { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.5', price: '60000', text: 't-mm1' });
    expect(ask).toMatchObject({ status: 'open', left: '0.5', price: '60000', text: 't-mm1', stp_id: 1, stp_act: '-' });
    expect(balance(ex, 10001, 'BTC')).toEqual(expect.objectContaining({ available: '1.5', locked: '0.5' }));
    const buy = ex.createOrder(10002, { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.2', price: '60100' });
    expect(buy).toMatchObject({ status: 'closed', finish_as: 'filled', filled_amount: '0.2', filled_total: '12000',
      avg_deal_price: '60000', fee: '0.0004', fee_currency: 'BTC', left: '0', text: 'apiv4' });
    // 50000 − 12000 paid; the hold at 60100 returned its price improvement.
    expect(balance(ex, 10002, 'USDT')).toEqual(expect.objectContaining({ available: '38000', locked: '0' }));
    expect(balance(ex, 10002, 'BTC').available).toBe('0.1996');
    // Maker receives 12000 less its 0.1 % fee.
    expect(balance(ex, 10001, 'USDT').available).toBe('111988');
    const amended = ex.amendOrder(10001, ask.id, { currency_pair: 'BTC_USDT', amount: '0.4' });
    expect(amended).toMatchObject({ amount: '0.4', left: '0.2', filled_amount: '0.2' });
    expect(balance(ex, 10001, 'BTC').locked).toBe('0.2');
    expect(ex.orderBook('BTC_USDT')).toMatchObject({ asks: [['60000', '0.2']], bids: [] });
    const [trade] = ex.myTrades(10001);
    expect(trade).toMatchObject({ role: 'maker', side: 'sell', amount: '0.2', price: '60000', fee: '12', fee_currency: 'USDT',
      order_id: ask.id, text: 't-mm1', sequence_id: '1' });
    ex.engine.assertInvariants();
  });

  it('spends a market buy\'s quote budget down to less than one lot and returns the dust', () => {
    const ex = EmbeddedExchange.create(CONFIG);
    ex.createOrder(10001, { currency_pair: 'BTC_USDT', side: 'sell', amount: '1', price: '60000' });
    const m = ex.createOrder(10002, { currency_pair: 'BTC_USDT', side: 'buy', type: 'market', time_in_force: 'ioc', amount: '1000' });
    expect(m).toMatchObject({ status: 'closed', finish_as: 'filled', filled_amount: '0.016666', filled_total: '999.96', left: '0.04' });
    expect(balance(ex, 10002, 'USDT')).toEqual(expect.objectContaining({ available: '49000.04', locked: '0' }));
  });

  it('answers bad requests with Gate labels and changes nothing', () => {
    const ex = EmbeddedExchange.create(CONFIG);
    const before = ex.stateHash();
    const cases: [Record<string, unknown>, string][] = [
      [{ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.0000001', price: '1' }, 'INVALID_PRECISION'],
      [{ currency_pair: 'XXX_USDT', side: 'buy', amount: '1', price: '1' }, 'INVALID_CURRENCY_PAIR'],
      [{ currency_pair: 'BTC_USDT', side: 'buy', amount: '100', price: '60000' }, 'BALANCE_NOT_ENOUGH'],
      [{ currency_pair: 'BTC_USDT', side: 'buy', amount: '-1', price: '60000' }, 'INVALID_PARAM_VALUE'],
      [{ currency_pair: 'BTC_USDT', side: 'up', amount: '1', price: '60000' }, 'INVALID_PARAM_VALUE'],
      [{ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.00001', price: '60000' }, 'AMOUNT_TOO_LITTLE'],
      [{ currency_pair: 'BTC_USDT', side: 'buy', price: '60000' }, 'MISSING_REQUIRED_PARAM'],
      [{ currency_pair: 'BTC_USDT', side: 'buy', amount: '1', price: '1', stp_act: 'cn' }, 'INVALID_PARAM_VALUE'],
      [{ currency_pair: 'BTC_USDT', side: 'buy', amount: '1', price: '1', text: 'no-prefix' }, 'INVALID_PARAM_VALUE'],
      [{ currency_pair: 'BTC_USDT', side: 'buy', type: 'market', time_in_force: 'gtc', amount: '10' }, 'INVALID_PARAM_VALUE'],
    ];
    for (const [body, label] of cases) {
      const e = rejection(() => ex.createOrder(10002, body));
      expect(e.label, JSON.stringify(body)).toBe(label);
      expect(e.status).toBe(400);
    }
    expect(rejection(() => ex.cancelOrder(10002, '999', 'BTC_USDT'))).toMatchObject({ label: 'ORDER_NOT_FOUND', status: 404 });
    expect(ex.stateHash()).toBe(before);
  });

  it('cancels only its own orders and reports them cancelled', () => {
    const ex = EmbeddedExchange.create(CONFIG);
    const o = ex.createOrder(10001, { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.5', price: '61000' });
    expect(rejection(() => ex.cancelOrder(10002, o.id, 'BTC_USDT')).label).toBe('ORDER_NOT_FOUND');
    expect(ex.cancelOrder(10001, o.id, 'BTC_USDT')).toMatchObject({ status: 'cancelled', finish_as: 'cancelled', left: '0.5' });
    expect(balance(ex, 10001, 'BTC')).toEqual(expect.objectContaining({ available: '2', locked: '0' }));
    expect(ex.listOrders(10001, { currency_pair: 'BTC_USDT', status: 'finished' }).map((x) => x.id)).toEqual([o.id]);
  });

  it('answers ORDER_CLOSED for a filled order and ORDER_CANCELLED for a cancelled one', () => {
    const ex = EmbeddedExchange.create(CONFIG);
    const ask = ex.createOrder(10001, { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.1', price: '60000' });
    ex.createOrder(10002, { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.1', price: '60000' });
    const before = ex.stateHash();
    expect(rejection(() => ex.cancelOrder(10001, ask.id, 'BTC_USDT'))).toMatchObject({ label: 'ORDER_CLOSED', status: 400 });
    expect(rejection(() => ex.amendOrder(10001, ask.id, { currency_pair: 'BTC_USDT', price: '61000' })).label).toBe('ORDER_CLOSED');
    const bid = ex.createOrder(10002, { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.1', price: '50000' });
    ex.cancelOrder(10002, bid.id, 'BTC_USDT');
    const afterCancel = ex.stateHash();
    expect(rejection(() => ex.cancelOrder(10002, bid.id, 'BTC_USDT')).label).toBe('ORDER_CANCELLED');
    expect(rejection(() => ex.cancelOrder(10001, bid.id, 'BTC_USDT')).label).toBe('ORDER_NOT_FOUND');
    expect(ex.stateHash()).toBe(afterCancel);
    expect(before).not.toBe(afterCancel);
  });
});
