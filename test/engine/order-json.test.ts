// orderJson writes exactly what JSON.stringify writes for every rendered order: all order kinds and states of
// a seeded engine run, and client strings that need escaping.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { orderJson, renderOrder } from '../../src/gate/shapes.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { ENGINE_DEFINITION, EngineStream } from '../support/engine-stream.js';

describe('orderJson', () => {
  it('equals JSON.stringify of the rendered order for every order of a random run', () => {
    const clock = new SimClock(1_767_225_600_000_000);
    const engine = new InlineEngine(ENGINE_DEFINITION, { clock });
    const s = new EngineStream(9);
    for (const c of s.openings()) engine.submit(c);
    const statuses = new Set<string>();
    let compared = 0;
    for (let i = 0; i < 2000; i++) {
      clock.advanceBy(7);
      const c = s.next();
      if (i % 3 === 0) c.text = 't-x' + String(i);
      engine.submit(c);
      const r = engine.exchange.orders.find(c.orderId);
      if (r < 0) continue;
      const o = renderOrder(engine.exchange, r);
      statuses.add(`${o.status}/${o.finish_as}/${o.type}`);
      expect(orderJson(o)).toBe(JSON.stringify(o));
      compared++;
    }
    expect(compared).toBeGreaterThan(500);
    expect(statuses.size).toBeGreaterThan(5);
  });

  it('escapes client strings exactly as JSON.stringify does', () => {
    const clock = new SimClock(1_767_225_600_000_000);
    const engine = new InlineEngine(ENGINE_DEFINITION, { clock });
    const s = new EngineStream(3);
    for (const c of s.openings()) engine.submit(c);
    let r = -1;
    while (r < 0) {
      const c = s.next();
      engine.submit(c);
      r = engine.exchange.orders.find(c.orderId);
    }
    const base = renderOrder(engine.exchange, r);
    for (const text of ['"quoted"', 'back\\slash', 'tab\there', 'line\nbreak', 'ünïcødé', '\u2028\u2029', '\u0001', '\ud800', '</script>', '']) {
      const o = { ...base, text, amend_text: text, currency_pair: text, fee_currency: text, account: text };
      expect(orderJson(o)).toBe(JSON.stringify(o));
    }
  });
});
