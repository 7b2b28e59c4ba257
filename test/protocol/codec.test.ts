import { Builder, ByteBuffer } from 'flatbuffers';
import { describe, expect, it } from 'vitest';
import { COMMAND_NUMERIC_FIELDS, Command, CommandType } from '../../src/core/command.js';
import { InvariantError } from '../../src/core/invariant.js';
import { Prng } from '../../src/core/prng.js';
import {
  COMMAND_FIELDS, decodeCommand, decodeHeader, decodeRecord, encodeCommand, encodeHeader, encodeRecord, encodeRecordInto,
} from '../../src/protocol/codec.js';
import type { JournalHeaderData } from '../../src/protocol/codec.js';
import { randomCommand } from './random-command.js';
import { Command as FbCommand, CommandFields as FbCommandFields } from '../../src/protocol/generated/command_generated.js';
import { JournalRecord as FbJournalRecord } from '../../src/protocol/generated/journal_generated.js';

const plain = (c: Command): Record<string, unknown> => ({ ...c });

describe('command codec', () => {
  it('round-trips 20k random commands over every field range', () => {
    const r = new Prng(7);
    const a = new Command();
    const b = new Command();
    for (let i = 0; i < 20_000; i++) {
      randomCommand(r, a);
      b.clear();
      decodeCommand(encodeCommand(a), b);
      expect(plain(b)).toEqual(plain(a));
      b.clear();
      decodeRecord(encodeRecord(a), b);
      expect(plain(b)).toEqual(plain(a));
    }
  });

  it('journal records carry the fronts\' records (empty, ASCII and UTF-8 JSON); the ring table does not', () => {
    const r = new Prng(8);
    const a = new Command();
    const b = new Command();
    const records = ['', '{"key/k1":{"secret":"s","uid":1}}', '{"sub/7":{"remark":"ünï €"},"acct/7":null}', `{"pt/1":"${'z'.repeat(5000)}"}`];
    for (let i = 0; i < 400; i++) {
      randomCommand(r, a);
      a.record = records[i % records.length]!;
      b.clear();
      decodeRecord(encodeRecord(a), b);
      expect(plain(b)).toEqual(plain(a));
      b.record = 'stale';
      decodeCommand(encodeCommand(a), b);
      expect(b.record).toBe('stale');
    }
  });

  it('keeps MAX_SAFE_INTEGER, its negation and 2^31 boundaries exact in every double field', () => {
    const a = new Command();
    const b = new Command();
    for (const v of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 31, 2 ** 32 + 1, 2 ** 53 - 2]) {
      a.seq = v; a.time = v; a.uid = v; a.orderId = v; a.price = v; a.amount = v; a.iceberg = v; a.toUid = v;
      a.market = 2147483647; a.currency = -2147483648; a.type = 255; a.text = '';
      decodeCommand(encodeCommand(a), b);
      expect(plain(b)).toEqual(plain(a));
    }
  });

  it('overwrites every field of the output, text included', () => {
    const r = new Prng(11);
    const full = randomCommand(r, new Command());
    full.text = 't-old';
    const zero = new Command();
    decodeCommand(encodeCommand(zero), full);
    expect(plain(full)).toEqual(plain(new Command()));
  });

  it('decodes at an offset inside a larger buffer and with a caller builder', () => {
    const r = new Prng(3);
    const a = randomCommand(r, new Command());
    a.text = 't-offset';
    const bytes = encodeCommand(a, new Builder(16));
    const big = new Uint8Array(bytes.length + 100);
    big.set(bytes, 37);
    const b = new Command();
    decodeCommand(big, b, 37);
    expect(plain(b)).toEqual(plain(a));
  });

  it('decodes from a SharedArrayBuffer-backed array (as a ring payload would be)', () => {
    const a = randomCommand(new Prng(12), new Command());
    const bytes = encodeCommand(a);
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length + 16));
    shared.set(bytes, 16);
    const b = new Command();
    decodeCommand(shared, b, 16);
    expect(plain(b)).toEqual(plain(a));
  });

  it('reads the CommandFields struct at the offsets the generated accessors use', () => {
    const r = new Prng(21);
    for (let i = 0; i < 200; i++) {
      const a = randomCommand(r, new Command());
      const bytes = encodeRecord(a);
      const f = FbJournalRecord.getRootAsJournalRecord(new ByteBuffer(bytes)).fields(new FbCommandFields())!;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const F = COMMAND_FIELDS;
      for (const k of ['seq', 'time', 'uid', 'orderId', 'price', 'amount', 'iceberg', 'toUid'] as const) {
        expect(view.getFloat64(f.bb_pos + F[k], true), k).toBe(f[k]());
      }
      for (const k of ['market', 'currency', 'sub', 'toSub'] as const) expect(view.getInt32(f.bb_pos + F[k], true), k).toBe(f[k]());
      for (const k of ['type', 'side', 'orderType', 'tif', 'stpAct', 'kind', 'toKind'] as const) expect(view.getUint8(f.bb_pos + F[k]), k).toBe(f[k]());
    }
  });

  it('decodes journal records at offsets of a shared buffer, through views that start inside another buffer', () => {
    const r = new Prng(22);
    const cmds = Array.from({ length: 50 }, () => randomCommand(r, new Command()));
    const parts = cmds.map((c) => encodeRecord(c).slice());
    const whole = new Uint8Array(new ArrayBuffer(parts.reduce((n, p) => n + p.length + 8, 24)));
    const starts: number[] = [];
    let at = 16;
    for (const p of parts) { at += 8; starts.push(at - 16); whole.set(p, at); at += p.length; }
    // A view that starts 16 bytes into the buffer, as a reader's chunk or a replicated batch can be.
    const view = whole.subarray(16);
    const b = new Command();
    cmds.forEach((c, i) => {
      expect(decodeRecord(view, b, starts[i])).toBe(true);
      expect(plain(b)).toEqual(plain(c));
    });
  });

  it('encodeRecordInto reports -1 when the destination is too small, else the same bytes as encodeRecord', () => {
    const a = randomCommand(new Prng(5), new Command());
    const expected = encodeRecord(a).slice();
    expect(encodeRecordInto(a, new Uint8Array(expected.length - 1), 0)).toBe(-1);
    const dst = new Uint8Array(expected.length + 8);
    expect(encodeRecordInto(a, dst, 8)).toBe(expected.length);
    expect(dst.subarray(8)).toEqual(expected);
  });

  it('throws instead of truncating an enum or index outside its wire range', () => {
    const c = new Command();
    c.side = 256;
    expect(() => encodeCommand(c)).toThrow(InvariantError);
    c.side = 0; c.market = 2 ** 31;
    expect(() => encodeCommand(c)).toThrow(InvariantError);
    c.market = 0; c.type = -1;
    expect(() => encodeRecord(c)).toThrow(InvariantError);
  });

  it('leaves empty text off the wire', () => {
    const c = new Command();
    c.type = CommandType.CancelOrder;
    const n = encodeCommand(c).length;
    c.text = 't-1';
    expect(encodeCommand(c).length).toBeGreaterThan(n);
    expect(COMMAND_NUMERIC_FIELDS.length).toBe(19);
  });
});

describe('journal header codec', () => {
  const header: JournalHeaderData = {
    formatVersion: 1,
    createdTime: 1_700_000_000_123_456,
    markets: [
      { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 6, min_base_amount: '0.00001', min_quote_amount: '3', max_quote_amount: '5000000' },
      { id: 'ETH_BTC', base: 'ETH', quote: 'BTC', precision: 6, amount_precision: 4 },
    ],
    currencies: [
      { code: 'BTC', scale: 8, maxSupply: '21000000' },
      { code: 'USDT', scale: 6 },
      { code: 'ETH', scale: 18, maxSupply: '120000000000' },
    ],
    configJson: JSON.stringify({ fees: { maker: '0.001' }, users: [1, 2] }),
  };

  it('round-trips markets, currencies and config, absent optional fields staying absent', () => {
    const back = decodeHeader(encodeHeader(header));
    expect(back).toStrictEqual(header);
  });

  it('round-trips an empty header', () => {
    const empty: JournalHeaderData = { formatVersion: 1, createdTime: 0, markets: [], currencies: [], configJson: '' };
    expect(decodeHeader(encodeHeader(empty))).toStrictEqual(empty);
  });
});

describe('journal record forms', () => {
  it('decodes a record written in the older Command-table form like the struct form', () => {
    const r = new Prng(17);
    for (let i = 0; i < 200; i++) {
      const cmd = randomCommand(r, new Command());
      const b = new Builder(256);
      const table = FbCommand.createCommand(b, cmd.type, cmd.seq, cmd.time, cmd.uid, cmd.market, cmd.orderId, cmd.side,
        cmd.orderType, cmd.tif, cmd.price, cmd.amount, cmd.iceberg, cmd.stpAct, cmd.currency, cmd.kind, cmd.sub, cmd.toUid,
        cmd.toKind, cmd.toSub, cmd.text === '' ? 0 : b.createString(cmd.text));
      FbJournalRecord.startJournalRecord(b);
      FbJournalRecord.addCommand(b, table);
      b.finish(FbJournalRecord.endJournalRecord(b));
      const legacy = new Command();
      expect(decodeRecord(b.asUint8Array(), legacy)).toBe(true);
      const current = new Command();
      expect(decodeRecord(encodeRecord(cmd).slice(), current)).toBe(true);
      for (const k of COMMAND_NUMERIC_FIELDS) expect(legacy[k], k).toBe(cmd[k]);
      expect(legacy.text).toBe(cmd.text);
      expect(current).toEqual(legacy);
    }
  });
});
