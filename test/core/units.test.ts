// Exact decimal ⇄ integer conversion: parseUnits, formatUnits (against big.js) and floorDiv (against BigInt).
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { POW10, floorDiv, formatUnits, isInt31, isPositiveSafeInteger, parseUnits } from '../../src/core/units.js';

const MAX = Number.MAX_SAFE_INTEGER;

describe('parseUnits', () => {
  it.each([
    ['1.5', 2, 150], ['100', 0, 100], ['0.0001', 4, 1], ['12.34', 2, 1234], ['007', 0, 7], ['0.5', 1, 5],
    ['9007199254740991', 0, MAX], ['90071992547409.91', 2, MAX],
  ] as const)('parses %j at scale %i into %i units', (text, scale, units) => {
    expect(parseUnits(text, scale)).toBe(units);
  });

  it('accepts trailing zeros beyond the scale', () => {
    expect(parseUnits('1.50', 1)).toBe(15);
    expect(parseUnits('1.500000', 2)).toBe(150);
    expect(parseUnits('3.000', 0)).toBe(3);
  });

  it('rejects a non-zero digit beyond the scale as InvalidPrecision', () => {
    expect(parseUnits('1.234', 2)).toBe(ResultCode.InvalidPrecision);
    expect(parseUnits('0.00001', 4)).toBe(ResultCode.InvalidPrecision);
    expect(parseUnits('1.5', 0)).toBe(ResultCode.InvalidPrecision);
    expect(parseUnits('1.0000001', 2)).toBe(ResultCode.InvalidPrecision);
  });

  it('rejects zero as InvalidParam', () => {
    for (const text of ['0', '0.0', '0.000', '000']) expect(parseUnits(text, 3)).toBe(ResultCode.InvalidParam);
  });

  it('rejects negative, signed, malformed, empty and exponent notation as InvalidParam', () => {
    for (const text of ['-1', '+1', '-0.5', 'abc', '1a', '1.2.3', '1,5', ' 1', '1 ', '', '.5', '5.', '1e5', '1E-2', 'Infinity', 'NaN', '0x10']) {
      expect(parseUnits(text, 4), text).toBe(ResultCode.InvalidParam);
    }
  });

  it('rejects non-strings and strings over 64 characters as InvalidParam', () => {
    for (const v of [5, null, undefined, {}, ['1'], 1n]) expect(parseUnits(v, 2)).toBe(ResultCode.InvalidParam);
    expect(parseUnits('1'.repeat(65), 0)).toBe(ResultCode.InvalidParam);
    expect(parseUnits(`1.${'0'.repeat(62)}`, 2)).toBe(100);
  });

  it('rejects values beyond the exact integer range as AmountTooMuch', () => {
    expect(parseUnits('9007199254740992', 0)).toBe(ResultCode.AmountTooMuch);
    expect(parseUnits('90071992547409.92', 2)).toBe(ResultCode.AmountTooMuch);
    expect(parseUnits('1', 16)).toBe(ResultCode.AmountTooMuch);
    expect(parseUnits('9'.repeat(40), 0)).toBe(ResultCode.AmountTooMuch);
  });

  it('agrees with big.js on random decimals of up to the scale digits', () => {
    const r = new Prng(11);
    for (let i = 0; i < 5000; i++) {
      const scale = r.between(0, 12);
      const units = r.between(1, MAX);
      const text = new Big(units).div(new Big(10).pow(scale)).toFixed(r.between(scale, scale + 3));
      expect(parseUnits(text, scale), text).toBe(units);
    }
  });
});

describe('formatUnits', () => {
  it('writes decimals without trailing zeros', () => {
    expect(formatUnits(150, 2)).toBe('1.5');
    expect(formatUnits(100, 2)).toBe('1');
    expect(formatUnits(1, 4)).toBe('0.0001');
    expect(formatUnits(100, 0)).toBe('100');
    expect(formatUnits(0, 3)).toBe('0');
    expect(formatUnits(-150, 2)).toBe('-1.5');
    expect(formatUnits(-1, 3)).toBe('-0.001');
    expect(formatUnits(-0, 3)).toBe('0');
    expect(formatUnits(1_000_000, 6)).toBe('1');
    expect(formatUnits(1_000_001, 6)).toBe('1.000001');
    expect(formatUnits(Number.MAX_SAFE_INTEGER, 15)).toBe('9.007199254740991');
    expect(formatUnits(Number.MAX_SAFE_INTEGER, 16)).toBe('0.9007199254740991');
    expect(formatUnits(-Number.MAX_SAFE_INTEGER, 22)).toBe('-0.0000009007199254740991');
  });

  it('throws RangeError for a value that is not a safe integer', () => {
    for (const v of [1.5, Number.NaN, Infinity, 2 ** 53]) expect(() => formatUnits(v, 2)).toThrow(RangeError);
  });

  it('matches big.js and round-trips through parseUnits on random values, at every scale up to 22', () => {
    const r = new Prng(12);
    for (let i = 0; i < 20000; i++) {
      const scale = r.between(0, 22);
      const units = r.chance(0.5) ? r.between(1, 10 ** r.between(1, 15)) : r.between(1, MAX);
      const text = formatUnits(units, scale);
      expect(text).toBe(new Big(`${units}e-${scale}`).toFixed()); // exact: no division (Big divides to 20 places)
      expect(parseUnits(text, scale)).toBe(units);
      expect(formatUnits(-units, scale)).toBe(`-${text}`);
    }
  });
});

describe('floorDiv', () => {
  const exact = (a: number, b: number): number => Number(BigInt(a) / BigInt(b));

  it('matches BigInt division on random large safe integers', () => {
    const r = new Prng(13);
    for (let i = 0; i < 20000; i++) {
      const a = r.between(0, MAX);
      const b = r.chance(0.5) ? r.between(1, 1000) : r.between(1, MAX);
      expect(floorDiv(a, b)).toBe(exact(a, b));
    }
  });

  it('is exact next to multiples, where float division rounds across an integer', () => {
    const r = new Prng(14);
    for (let i = 0; i < 20000; i++) {
      const b = r.between(2, 2 ** r.between(2, 40));
      const q = r.between(1, Math.floor(MAX / b) - 1);
      for (const a of [q * b - 1, q * b, q * b + 1]) expect(floorDiv(a, b), `${a} / ${b}`).toBe(exact(a, b));
    }
    expect(floorDiv(MAX, 3)).toBe(exact(MAX, 3));
    expect(floorDiv(MAX - 1, MAX)).toBe(0);
    expect(floorDiv(MAX, MAX)).toBe(1);
    expect(floorDiv(0, 7)).toBe(0);
  });
});

describe('integer predicates and powers', () => {
  it('isInt31 accepts exactly the integers in [0, 2^31)', () => {
    for (const v of [0, 1, 2 ** 31 - 1]) expect(isInt31(v)).toBe(true);
    for (const v of [-1, 2 ** 31, 1.5, Number.NaN, Infinity, -0.5]) expect(isInt31(v)).toBe(false);
  });

  it('isPositiveSafeInteger accepts exactly the safe integers above zero', () => {
    for (const v of [1, 2 ** 31, MAX]) expect(isPositiveSafeInteger(v)).toBe(true);
    for (const v of [0, -1, 0.5, 2 ** 53, Number.NaN, Infinity]) expect(isPositiveSafeInteger(v)).toBe(false);
  });

  it('POW10 holds exact powers of ten', () => {
    expect(POW10).toHaveLength(23);
    POW10.forEach((p, k) => expect(BigInt(p)).toBe(10n ** BigInt(k)));
  });
});
