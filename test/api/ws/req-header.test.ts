// req_header reading: header names in any case, x-gate-exptime compared with the given clock (ms).
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../../../src/core/result-code.js';
import { checkReqExptime, headerValue } from '../../../src/api/ws/req-header.js';

describe('req_header', () => {
  it('finds a header whatever its case and renders numbers as strings', () => {
    expect(headerValue({ 'X-Gate-Size-Decimal': '1' }, 'x-gate-size-decimal')).toBe('1');
    expect(headerValue({ 'x-gate-exptime': 1700000000000 }, 'x-gate-exptime')).toBe('1700000000000');
    expect(headerValue(undefined, 'x-gate-exptime')).toBe('');
    expect(headerValue(['x'], 'x-gate-exptime')).toBe('');
    expect(headerValue({ 'x-gate-exptime': { a: 1 } }, 'x-gate-exptime')).toBe('\0');
  });

  it('expires requests after x-gate-exptime and refuses malformed values', () => {
    expect(checkReqExptime({}, 1000)).toBe(ResultCode.Ok);
    expect(checkReqExptime({ 'x-gate-exptime': '1000' }, 1000)).toBe(ResultCode.Ok);
    expect(checkReqExptime({ 'x-gate-exptime': '1000' }, 1001)).toBe(ResultCode.RequestExpired);
    expect(checkReqExptime({ 'X-Gate-Exptime': 999 }, 1000)).toBe(ResultCode.RequestExpired);
    for (const bad of ['abc', '-5', '1e3', '', ' 1', true, { x: 1 }]) {
      const r = checkReqExptime({ 'x-gate-exptime': bad }, 1000);
      expect(r, JSON.stringify(bad)).toBe(bad === '' ? ResultCode.Ok : ResultCode.InvalidParam);
    }
  });
});
