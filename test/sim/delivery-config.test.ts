// The delivery part of the config: dated contracts in `futures.contracts` are checked as the engine will build
// them (the date in the name is expire_time's UTC day, a known cycle, windows of at most a day, no expire_time on
// a perpetual name), `balances.delivery` funds the delivery account, and the demo's dated contracts expire on a
// Friday 08:00 UTC after its start.
import { describe, expect, it } from 'vitest';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import type { ContractConfig } from '../../src/core/futures/contract.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { DEMO_CONFIG, demoDeliveryContracts, nextFriday } from '../../src/sim/demo.js';
import { openingAccount } from '../../src/sim/sim-config.js';
import { DELIVERY_CONFIG, WEEKLY, WEEKLY_EXPIRE } from '../api/delivery-helpers.js';

const withContract = (patch: Partial<ContractConfig>) => {
  const contracts = DELIVERY_CONFIG.futures!.contracts.map((c) => (c.name === WEEKLY ? { ...c, ...patch } : c));
  return { ...DELIVERY_CONFIG, futures: { ...DELIVERY_CONFIG.futures!, contracts } };
};

describe('delivery config', () => {
  it('accepts dated contracts and delivery balances', () => {
    const c = validateConfig(structuredClone(DELIVERY_CONFIG));
    expect(c.futures!.contracts.filter((k) => k.expire_time !== undefined)).toHaveLength(2);
    expect(openingAccount('delivery', 3)).toEqual({ kind: AccountKind.Delivery, sub: 3 });
  });

  it.each([
    [{ expire_time: WEEKLY_EXPIRE + 86_400 }, /is not on 20260605/],
    [{ expire_time: undefined }, /expire_time/],
    [{ cycle: 'MONTHLY' }, /cycle must be one of/],
    [{ settle_price_duration: 90_000 }, /at most 86400/],
    [{ settle_fee_rate: '-0.1' }, /"-0.1" is not a non-negative decimal/],
    [{ expire_time: '1780646400' as unknown as number }, /must be a number/],
    [{ name: 'BTC_USDT_2026065' }, /BASE_QUOTE/],
  ])('refuses %j', (patch, message) => {
    expect(() => validateConfig(withContract(patch))).toThrow(message);
  });

  it('refuses expire_time on a perpetual name', () => {
    const contracts = DELIVERY_CONFIG.futures!.contracts.map((c) => (c.name === 'BTC_USDT' ? { ...c, expire_time: WEEKLY_EXPIRE } : c));
    expect(() => validateConfig({ ...DELIVERY_CONFIG, futures: { ...DELIVERY_CONFIG.futures!, contracts } })).toThrow(/needs a delivery name/);
  });

  it('dates the demo contracts from its start: next Friday 08:00 UTC at least a day on, and a quarter end two weeks after', () => {
    const start = Date.UTC(2026, 10, 26, 12); // Thursday
    expect(new Date(nextFriday(start)).toISOString()).toBe('2026-12-04T08:00:00.000Z');
    const [weekly, quarterly] = demoDeliveryContracts(start);
    expect(weekly).toMatchObject({ name: 'BTC_USDT_20261204', cycle: 'WEEKLY', expire_time: Date.UTC(2026, 11, 4, 8) / 1000 });
    expect(quarterly).toMatchObject({ name: 'BTC_USDT_20261225', cycle: 'QUARTERLY', expire_time: Date.UTC(2026, 11, 25, 8) / 1000 });
    // Less than two weeks before the quarter's last Friday: the next quarter's.
    expect(demoDeliveryContracts(Date.UTC(2026, 11, 14))[1]).toMatchObject({ name: 'BTC_USDT_20260326'.replace('2026', '2027') });
    expect(validateConfig(DEMO_CONFIG).futures!.contracts.filter((k) => k.expire_time !== undefined)).toHaveLength(2);
  });
});
