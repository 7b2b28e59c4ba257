// Isolated-margin loans are journaled like any other command: a journal of borrows and repays on pair Margin
// accounts and hourly accruals replays to the live state hash (loan columns, pool, records included), a
// snapshot restores it, and the sum of every balance per currency never changes.
import { afterAll, describe, expect, it } from 'vitest';
import { CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { LoanKind } from '../../src/core/unified/unified-state.js';
import { recoverFromJournal } from '../../src/engine/recovery.js';
import { captureSnapshot, restoreEngine } from '../../src/engine/snapshot/capture.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/protocol/snapshot-codec.js';
import { HOUR, type LoanJournal, openLoanJournal } from '../support/loan-journal.js';

let opened: LoanJournal | undefined;
afterAll(async () => { await opened?.cleanup(); });

describe('isolated-margin commands in the journal', () => {
  it('replay to the live state hash and conserve every currency', async () => {
    opened = await openLoanJournal('margin');
    const { engine, clock, journal, path, c, submit } = opened;
    const ex = engine.exchange;
    for (const uid of [1, 2, 3]) {
      submit(() => { c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Margin; c.sub = 0; c.currency = 0; c.amount = 1e8; });
    }
    const supply = (cur: number): bigint => BigInt(ex.ledger.supply(ex.currencies[cur]!)!);
    const sum = (cur: number): bigint => {
      let s = 0n;
      for (const uid of [0, 1, 2, 3]) {
        for (const [kind, sub] of [[AccountKind.Unified, 0], [AccountKind.Margin, 0], [AccountKind.Spot, 0]] as const) {
          const b = ex.ledger.balance(uid, kind, sub, ex.currencies[cur]!)!;
          s += BigInt(b.available) + BigInt(b.locked);
        }
      }
      return s;
    };
    const rng = new Prng(9);
    let ok = 0;
    for (let i = 0; i < 500; i++) {
      if (rng.chance(0.1)) clock.advanceBy(rng.nextInt(2 * HOUR));
      const uid = 1 + rng.nextInt(3);
      const cur = rng.nextInt(2);
      const k = rng.nextInt(3);
      const code = submit(() => {
        c.type = k === 0 ? CommandType.MarginBorrow : k === 1 ? CommandType.MarginRepay : CommandType.UnifiedAccrue;
        c.uid = uid; c.market = 0; c.currency = cur; c.side = LoanKind.Manual;
        c.amount = cur === 0 ? rng.between(1, 20_000_000) : rng.between(1, 5_000) * 1e6;
      });
      if (code === ResultCode.Ok) ok++;
      for (const cc of [0, 1]) expect(sum(cc)).toBe(supply(cc));
      if (i % 50 === 0) await engine.flush();
    }
    // A currency outside the pair and an unknown market are refused.
    expect(submit(() => { c.type = CommandType.MarginBorrow; c.uid = 1; c.market = 5; c.currency = 1; c.side = LoanKind.Manual; c.amount = 1e6; }))
      .toBe(ResultCode.InvalidParam);
    await engine.flush();
    await journal.close();
    expect(ok).toBeGreaterThan(100);
    expect(ex.unified.interest.some((r) => r.market === 0)).toBe(true);
    expect(ex.ledger.openLoans().every((l) => l.kind === AccountKind.Margin && l.sub === 0)).toBe(true);
    const recovered = await recoverFromJournal(path);
    expect(recovered.engine.stateHash()).toBe(engine.stateHash());
    expect(recovered.engine.exchange.ledger.openLoans()).toEqual(ex.ledger.openLoans());
    const restored = restoreEngine(decodeSnapshot(encodeSnapshot(captureSnapshot(engine))), { clock });
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect(restored.exchange.unified.interest).toEqual(ex.unified.interest);
    expect(restored.exchange.unified.loans).toEqual(ex.unified.loans);
  });
});
