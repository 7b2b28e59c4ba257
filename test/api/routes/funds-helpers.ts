// Shared by the transfer and sub-account route tests: a config with a configured sub-account, signed calls
// that return {status, body}, the state hash, and the conservation check over every account of every user.
import { expect } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import type { Simulator } from '../../../src/main.js';
import type { SimulatorConfig } from '../../../src/sim/config-file.js';
import { plainFetch, signedFetch, TEST_CONFIG } from '../http-helpers.js';

/** TEST_CONFIG plus sub-account 20001 of 10001 (key sub1) and a sub-account 20002 of 10002 (key sub2). */
export const FUNDS_CONFIG: SimulatorConfig = {
  ...TEST_CONFIG,
  users: [
    ...TEST_CONFIG.users!,
    { uid: 20001, main_uid: 10001, keys: [{ key: 'sub1', secret: 'ss1' }], balances: { spot: { USDT: '100' } } },
    { uid: 20002, main_uid: 10002, keys: [{ key: 'sub2', secret: 'ss2' }] },
  ],
};

/** A JSON object of a response. */
export type J = Record<string, unknown>;

/** A response; `body` is the parsed JSON object (arrays are cast by the caller), undefined for 204. */
export interface Res { status: number; body: J }

export type Caller = (method: string, path: string, body?: unknown, query?: string, key?: [string, string]) => Promise<Res>;

/** A signed caller for `sim`; `key` defaults to the main account 10001's [k1, s1]. */
export function caller(sim: Simulator): Caller {
  return async (method, path, body, query, key = ['k1', 's1']) => {
    const r = await signedFetch(sim.server.port, {
      method, path: `/api/v4${path}`, query, body: body === undefined ? '' : JSON.stringify(body), key: key[0], secret: key[1],
    });
    return { status: r.status, body: r.body as J };
  };
}

export async function stateHash(sim: Simulator): Promise<string> {
  const r = await plainFetch(sim.server.port, '/sim/state_hash');
  return (r.body as { state_hash: string }).state_hash;
}

/** Expects a rejection with `label` and `status`, and that the engine state did not change. */
export async function expectRejected(sim: Simulator, call: () => Promise<Res>, status: number, label: string): Promise<void> {
  const before = await stateHash(sim);
  const r = await call();
  expect(r.body?.label, JSON.stringify(r.body)).toBe(label);
  expect(r.status).toBe(status);
  expect(await stateHash(sim)).toBe(before);
}

/** Σ (available + locked) over every account kind of `uids` and the platform, per currency, equals the net supply. */
export function expectConserved(sim: Simulator, uids: readonly number[]): void {
  const ex = sim.gateway.exchange;
  for (const cur of ex.currencies) {
    let sum = 0n;
    for (const uid of [0, ...uids]) {
      const accounts: [number, number][] = [[AccountKind.Spot, 0], [AccountKind.CrossMargin, 0], [AccountKind.Unified, 0], [AccountKind.Options, 0]];
      ex.markets.forEach((_m, i) => accounts.push([AccountKind.Margin, i]));
      ex.currencies.forEach((_c, i) => accounts.push([AccountKind.Futures, i], [AccountKind.Delivery, i]));
      for (const [kind, sub] of accounts) {
        const b = ex.ledger.balance(uid, kind, sub, cur)!;
        sum += BigInt(b.available) + BigInt(b.locked);
      }
    }
    expect(sum, cur).toBe(BigInt(ex.ledger.supply(cur)!));
  }
}

/** available of one account, as a decimal string. */
export const available = (sim: Simulator, uid: number, kind: number, sub: number, cur: string): string =>
  sim.gateway.exchange.ledger.balanceText(uid, kind, sub, cur)!.available;
