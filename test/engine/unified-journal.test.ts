// Unified commands are journaled like any other: a journal of mode switches, borrows, repays and hourly
// accruals replays to the live state hash (modes, accrual hour, loan columns and the lending pool included),
// and a snapshot carries the same state (encoded, decoded and restored to the live hash).
import { afterAll, describe, expect, it } from 'vitest';
import { CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { LoanKind } from '../../src/core/unified/unified-state.js';
import { UnifiedMode } from '../../src/core/unified/valuation.js';
import { recoverFromJournal } from '../../src/engine/recovery.js';
import { captureSnapshot, restoreEngine } from '../../src/engine/snapshot/capture.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/protocol/snapshot-codec.js';
import { HOUR, type LoanJournal, openLoanJournal } from '../support/loan-journal.js';

let opened: LoanJournal | undefined;
afterAll(async () => { await opened?.cleanup(); });

describe('unified commands in the journal', () => {
  it('replay to the live state hash', async () => {
    opened = await openLoanJournal('unified');
    const { engine, clock, journal, path, c, submit } = opened;
    for (const uid of [1, 2, 3]) {
      submit(() => { c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Spot; c.currency = 0; c.amount = 1e8; });
      submit(() => { c.type = CommandType.UnifiedSetMode; c.uid = uid; c.side = uid === 3 ? UnifiedMode.Portfolio : UnifiedMode.MultiCurrency; });
    }
    const rng = new Prng(5);
    let ok = 0;
    for (let i = 0; i < 500; i++) {
      if (rng.chance(0.1)) clock.advanceBy(rng.nextInt(2 * HOUR));
      const uid = 1 + rng.nextInt(3);
      const cur = rng.nextInt(2);
      const k = rng.nextInt(3);
      const code = submit(() => {
        c.type = k === 0 ? CommandType.UnifiedBorrow : k === 1 ? CommandType.UnifiedRepay : CommandType.UnifiedAccrue;
        c.uid = uid; c.currency = cur; c.side = LoanKind.Manual;
        c.amount = cur === 0 ? rng.between(1, 20_000_000) : rng.between(1, 5_000) * 1e6;
      });
      if (code === ResultCode.Ok) ok++;
      if (i % 50 === 0) await engine.flush();
    }
    await engine.flush();
    await journal.close();
    expect(ok).toBeGreaterThan(100);
    expect(engine.exchange.unified.interest.length).toBeGreaterThan(0);
    const recovered = await recoverFromJournal(path);
    expect(recovered.engine.stateHash()).toBe(engine.stateHash());
    expect(recovered.engine.exchange.ledger.openLoans()).toEqual(engine.exchange.ledger.openLoans());
    expect(recovered.engine.exchange.unified.modeOf(3)).toBe(UnifiedMode.Portfolio);
    const restored = restoreEngine(decodeSnapshot(encodeSnapshot(captureSnapshot(engine))), { clock });
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect(restored.exchange.unified.modeOf(3)).toBe(UnifiedMode.Portfolio);
    expect(restored.exchange.unified.interest).toEqual(engine.exchange.unified.interest);
    expect(restored.exchange.unified.loans).toEqual(engine.exchange.unified.loans);
  });
});
