// Shared by the loan journal tests (unified and margin): a two-currency exchange with a lending-pool setup and
// an inline engine journaling to a temporary file, with a `submit` that fills one reused command.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimClock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import type { ResultCode } from '../../src/core/result-code.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor } from '../../src/engine/recovery.js';

export const T0 = 1_767_225_600_000_000;
export const HOUR = 3_600_000_000;

/** BTC (scale 8, index 40,000) and USDT (scale 6), one pair, users 1–3. */
export const LOAN_DEF: ExchangeDefinition = {
  currencies: [{ code: 'BTC', scale: 8, maxSupply: '1000000' }, { code: 'USDT', scale: 6, maxSupply: '1000000000' }],
  markets: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 4 }],
  users: [{ uid: 1 }, { uid: 2 }, { uid: 3 }],
  unified: { currencies: { BTC: { index_price: '40000', hourly_rate: '0.00005' }, USDT: { hourly_rate: '0.00003' } } },
};

export interface LoanJournal {
  readonly engine: InlineEngine;
  readonly clock: SimClock;
  readonly journal: JournalWriter;
  readonly path: string;
  /** The reused command: `submit` clears it, lets `fill` set it and submits it. */
  readonly c: Command;
  readonly submit: (fill: () => void) => ResultCode;
  /** Removes the temporary directory. */
  readonly cleanup: () => Promise<void>;
}

/** An engine on LOAN_DEF journaling to a new temporary file, its lending pool funded (50 BTC, 1,000,000 USDT). */
export async function openLoanJournal(name: string): Promise<LoanJournal> {
  const dir = await mkdtemp(join(tmpdir(), `ringmatch-${name}-`));
  const path = join(dir, `${name}.journal`);
  const clock = new SimClock(T0);
  const journal = await JournalWriter.open(path, headerFor(LOAN_DEF, T0), { fsync: 'batch' });
  const engine = new InlineEngine(LOAN_DEF, { clock, journal });
  const c = new Command();
  const submit = (fill: () => void): ResultCode => { c.clear(); fill(); return engine.submit(c); };
  submit(() => { c.type = CommandType.Credit; c.uid = 0; c.kind = AccountKind.Unified; c.currency = 0; c.amount = 50 * 1e8; });
  submit(() => { c.type = CommandType.Credit; c.uid = 0; c.kind = AccountKind.Unified; c.currency = 1; c.amount = 1e6 * 1e6; });
  return { engine, clock, journal, path, c, submit, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
