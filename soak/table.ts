/** A plain-text table: columns padded to their widest cell; columns from `rightFrom` on are right-aligned. */
export function formatTable(head: readonly string[], body: readonly (readonly string[])[], rightFrom: number): string {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((b) => (b[c] ?? '').length)));
  const line = (cells: readonly string[]): string => cells
    .map((x, c) => (c >= rightFrom ? x.padStart(widths[c]!) : x.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
