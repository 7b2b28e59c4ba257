/**
 * Seeded random engine Commands for codec and journal tests: every field drawn over its whole wire range
 * (doubles up to ±MAX_SAFE_INTEGER, ubyte 0..255, int32 indexes), zeros often (defaults are elided on
 * the wire), and text empty, ASCII or multi-byte UTF-8.
 */
import { COMMAND_NUMERIC_FIELDS } from '../../src/core/command.js';
import type { Command } from '../../src/core/command.js';
import type { Prng } from '../../src/core/prng.js';

const UBYTE = new Set(['type', 'side', 'orderType', 'tif', 'stpAct', 'kind', 'toKind']);
const INT = new Set(['market', 'currency', 'sub', 'toSub']);
const TEXTS = ['', '', '', 't-1', 't-client-order-42', 'tëxt-ünïcode-€', 't-' + 'x'.repeat(28)];

function safeInt(r: Prng): number {
  switch (r.nextInt(5)) {
    case 0: return 0;
    case 1: return Number.MAX_SAFE_INTEGER;
    case 2: return -Number.MAX_SAFE_INTEGER;
    case 3: return r.nextU32();
    default: return r.nextU32() * 2 ** 21 + (r.nextU32() >>> 11);
  }
}

/** Fills `out` with random values over each field's range; returns it. */
export function randomCommand(r: Prng, out: Command): Command {
  for (const f of COMMAND_NUMERIC_FIELDS) {
    let v: number;
    if (UBYTE.has(f)) v = r.chance(0.2) ? 0 : r.nextInt(256);
    else if (INT.has(f)) v = r.chance(0.2) ? 0 : r.chance(0.1) ? -2147483648 : r.nextU32() | 0;
    else v = safeInt(r);
    out[f] = v;
  }
  out.text = TEXTS[r.nextInt(TEXTS.length)]!;
  return out;
}
