// The error catalogue covers every rejection code with a real Gate label, and README documents each label.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, gateError } from '../../src/gate/error-catalogue.js';
import { GATE_LABELS } from '../../src/gate/labels.js';
import { ALL_RESULT_CODES, ResultCode } from '../../src/core/result-code.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('error catalogue', () => {
  it('has an entry for every rejection code and none for Ok', () => {
    for (const code of ALL_RESULT_CODES) {
      if (code === ResultCode.Ok) expect(() => gateError(code)).toThrow(RangeError);
      else expect(gateError(code).label).toMatch(/^[A-Za-z_]+$/); // Gate spells one label RISK_LIMIT_TOO_lOW
    }
    expect(Object.keys(ERROR_CATALOGUE).length).toBe(ALL_RESULT_CODES.length - 1);
  });

  it('uses only labels from Gate\'s catalogue', () => {
    for (const e of Object.values(ERROR_CATALOGUE)) expect(GATE_LABELS.has(e.label), e.label).toBe(true);
  });

  it('maps client errors to 4xx, overload to 503 and engine faults to 500', () => {
    for (const [code, e] of Object.entries(ERROR_CATALOGUE)) {
      if (e.label === 'TOO_BUSY') expect(e.status, code).toBe(503);
      else if (e.label === 'SERVER_ERROR') expect(e.status, code).toBe(500);
      else expect(e.status >= 400 && e.status < 500, `${code} → ${e.status}`).toBe(true);
    }
  });

  it('is documented in README with the same status', () => {
    for (const e of Object.values(ERROR_CATALOGUE)) {
      expect(readme, e.label).toMatch(new RegExp(`\\|\\s*\`${e.label}\`\\s*\\|\\s*${e.status}\\s*\\|`));
    }
  });
});
