// Groups through the gateways: commands submitted as a group are sequenced one after another (nothing else
// between them, even with other submits queued around them), framed as one journal group, each answered
// with its own code; the journal replays to the live hash on either runner.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { Command, CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { ResultCode } from '../../src/core/result-code.js';
import { type ExchangeGateway, InlineGateway } from '../../src/engine/gateway.js';
import { GROUP_CONTINUES, readU32 } from '../../src/engine/journal/format.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor, recoverFromJournal } from '../../src/engine/recovery.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { ThreadedGateway } from '../../src/engine/threaded-gateway.js';
import { ENGINE_DEFINITION, EngineStream } from '../support/engine-stream.js';
import { StepClock } from '../support/pipeline-stream.js';
import { recordOffsets, tempDirs } from './journal/journal-helpers.js';

const T0 = 1_767_225_600_000_000;
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const credit = (uid: number, amount: number): Command => {
  const c = new Command();
  c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Spot; c.currency = 0; c.amount = amount;
  return c;
};

describe('journal groups through the gateways', () => {
  for (const runner of ['inline', 'threaded'] as const) {
    it(`${runner}: a group is consecutive in the log, flagged, answered per command, and replays`, async () => {
      const file = path.join(await dirs.make(), 'g.log');
      const journal = await JournalWriter.open(file, headerFor(ENGINE_DEFINITION, T0), { fsync: 'never' });
      const clock = new StepClock(T0, 1000);
      const gw: ExchangeGateway = runner === 'inline'
        ? new InlineGateway(ENGINE_DEFINITION, clock, { engine: new InlineEngine(ENGINE_DEFINITION, { clock, journal }), journal })
        : new ThreadedGateway(ENGINE_DEFINITION, clock, { journal });
      const s = new EngineStream(9);
      for (const c of s.openings()) gw.submit(c, () => undefined);
      const groups: number[][] = [];
      const codes: number[][] = [];
      for (let g = 0; g < 50; g++) {
        for (let i = 0; i < 5; i++) gw.submit(s.next(), () => undefined);
        const size = 2 + (g % 4);
        const seqs: number[] = [];
        const got: number[] = [];
        const members = Array.from({ length: size }, (_, i) => i === 1 ? s.next() : credit(101 + (i % 6), 1 + i));
        // One member may be rejected (an unknown user): the others still apply.
        if (g % 7 === 0) members[size - 1] = credit(999_999, 5);
        gw.submitGroup(members.map((c) => [c, (code: number, done: Command) => { seqs.push(done.seq); got.push(code); }] as const));
        groups.push(seqs);
        codes.push(got);
      }
      await gw.settled();
      for (const [g, seqs] of groups.entries()) {
        const sorted = [...seqs].sort((a, b) => a - b);
        expect(sorted[sorted.length - 1]! - sorted[0]!, `group ${g}`).toBe(sorted.length - 1);
        if (g % 7 === 0) expect(codes[g]!.at(-1)).toBe(ResultCode.UserNotFound);
      }
      const hash = await gw.stateHash();
      await gw.close();
      // Flags: every member but the last of a group carries GROUP_CONTINUES.
      const bytes = await readFile(file);
      const { offsets } = recordOffsets(bytes);
      const flagged = offsets.map((at) => (readU32(bytes, at) & GROUP_CONTINUES) !== 0);
      const firstOpening = 18; // openings are 18 credits
      const flaggedSeqs = new Set(flagged.flatMap((f, i) => (f ? [i + 1] : [])));
      for (const seqs of groups) {
        const sorted = [...seqs].sort((a, b) => a - b);
        for (const q of sorted.slice(0, -1)) expect(flaggedSeqs.has(q)).toBe(true);
        expect(flaggedSeqs.has(sorted.at(-1)!)).toBe(false);
      }
      expect(flaggedSeqs.size).toBe(groups.reduce((n, g) => n + g.length - 1, 0));
      expect(flagged.slice(0, firstOpening).some(Boolean)).toBe(false);
      expect((await recoverFromJournal(file)).engine.stateHash()).toBe(hash);
    });
  }
});
