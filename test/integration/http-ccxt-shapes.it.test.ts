// Unchanged ccxt (gate) reading answers whose shapes must match real Gate answers: currencies with the
// configured chains (networks usable for withdrawals), withdrawals whose amount includes the fee, on the wallet
// simulation's simulated clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import Big from 'big.js';
import { advance, spot, startWalletSimulator } from '../api/wallet-helpers.js';
import { type CcxtGate, ccxtGate } from '../support/clients.js';

let sim: Simulator;
let port: number;
let alice: CcxtGate;

beforeAll(async () => {
  sim = await startWalletSimulator();
  port = sim.server.port;
  alice = ccxtGate(port, 'k1', 's1');
});
afterAll(async () => { await sim.close(); });

describe('ccxt fetchCurrencies', () => {
  it('lists the configured chains as networks, and withdraw takes each usable network', async () => {
    const currencies = await alice.fetchCurrencies();
    const usdt = currencies.USDT!;
    const networks = usdt.networks as Record<string, { id: string; deposit: boolean; withdraw: boolean }>;
    expect(Object.fromEntries(Object.entries(networks).map(([k, n]) => [k, [n.id, n.deposit, n.withdraw]]))).toEqual({
      ERC20: ['ETH', true, true], TON: ['TON', true, true], TRC20: ['TRX', false, false],
    });
    expect([usdt.deposit, usdt.withdraw]).toEqual([true, true]);
    expect(Object.values(currencies.BTC!.networks as Record<string, { id: string }>).map((n) => n.id)).toEqual(['BTC']);

    await alice.loadMarkets();
    expect([alice.market('BTC/USDT').margin, alice.market('ETH/USDT').margin]).toEqual([true, true]);
    const fees: Record<string, number> = { ERC20: 1.01, TON: 0.5 }; // ETH: 1 + 0.1 % of 10; TON: 0.5
    for (const [code, n] of Object.entries(networks)) {
      if (!n.withdraw) continue;
      await advance(port, 3000);
      const before = await spot(port, 'USDT');
      const tx = await alice.withdraw('USDT', 10, code === 'TON' ? 'EQ-ton-address' : '0x4444444444444444444444444444444444444444',
        code === 'TON' ? '42' : undefined, { network: code });
      expect(tx.id).toMatch(/^w/);
      expect((tx.info as { chain: string }).chain).toBe(n.id);
      // Gate's amount includes the fee: the account gives 10, ccxt reports what arrives and the fee apart.
      expect([tx.amount, tx.fee?.cost]).toEqual([10 - fees[code]!, fees[code]]);
      expect(new Big(before.available).minus((await spot(port, 'USDT')).available).toString()).toBe('10');
    }
  });
});
