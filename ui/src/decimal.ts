/**
 * Exact sums of the decimal strings the server sends (book totals), so the page never shows a float's rounding
 * (0.1 + 0.2). Numbers are kept as a BigInt of units and a count of decimals.
 */

export interface Dec {
  readonly units: bigint;
  readonly scale: number;
}

export const ZERO: Dec = { units: 0n, scale: 0 };

/** `"12.340"` → {units: 12340n, scale: 3}; anything else → ZERO. */
export function parseDec(s: string): Dec {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(s.trim());
  if (m === null) return ZERO;
  const frac = m[3] ?? '';
  const units = BigInt(`${m[2]}${frac}`);
  return { units: m[1] === '-' ? -units : units, scale: frac.length };
}

export function addDec(a: Dec, b: Dec): Dec {
  const scale = Math.max(a.scale, b.scale);
  return { units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale), scale };
}

export const subDec = (a: Dec, b: Dec): Dec => addDec(a, { units: -b.units, scale: b.scale });

/** The decimal text, without trailing zeros after the point. */
export function formatDec(d: Dec): string {
  const neg = d.units < 0n;
  const digits = (neg ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const int = digits.slice(0, digits.length - d.scale);
  const frac = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`;
}

/** A fraction as a percentage, exactly: `"0.6123"` → `"61.23"`; '' for anything that is not a decimal. */
export function percent(s: string): string {
  if (!/^-?[0-9]+(\.[0-9]+)?$/.test(s.trim())) return '';
  const d = parseDec(s);
  return d.scale >= 2 ? formatDec({ units: d.units, scale: d.scale - 2 }) : formatDec({ units: d.units * 10n ** BigInt(2 - d.scale), scale: 0 });
}
