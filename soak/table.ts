/** A plain-text table: columns padded to their widest cell; columns in [rightFrom, rightTo) are right-aligned. */
export function formatTable(head: readonly string[], body: readonly (readonly string[])[], rightFrom: number, rightTo = head.length): string {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((b) => (b[c] ?? '').length)));
  const line = (cells: readonly string[]): string => cells
    .map((x, c) => (c >= rightFrom && c < rightTo ? x.padStart(widths[c]!) : x.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
