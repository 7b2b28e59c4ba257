/**
 * Summarizes V8 heap snapshots (`.heapsnapshot`, as `v8.writeHeapSnapshot` or soak:server's
 * `--heap-snapshots` write them) by node type and constructor name: count and self size. Given two, prints
 * what changed from the first to the second, largest growth first: what a process retains more of.
 *
 *   node --import tsx soak/heap-diff.ts [--top N] A.heapsnapshot [B.heapsnapshot]
 *
 * Cost: parses each file whole (JSON.parse; a 60 MB snapshot needs ~0.5 GB of memory and a few seconds).
 */
import { readFileSync } from 'node:fs';
import { SoakArgs } from './args.js';
import { formatTable } from './table.js';

const USAGE = `usage: node --import tsx soak/heap-diff.ts [--top N] A.heapsnapshot [B.heapsnapshot]

Counts and self sizes by node type and constructor; with two snapshots, the change from A to B.
  --top N     rows printed (default 40)
  --help, -h  this text
`;

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

type Summary = Map<string, { count: number; size: number }>;

/** Node type and name → count and self size. Strings are grouped by type only (their names are their text). */
function summarize(file: string): Summary {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const width = fields.length;
  const [iType, iName, iSize] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const out: Summary = new Map();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + iType]!] ?? '?';
    const named = type === 'object' || type === 'closure' || type === 'native' || type === 'hidden' || type === 'synthetic';
    const key = named ? `${type} ${s.strings[s.nodes[i + iName]!]!.slice(0, 60)}` : type;
    const e = out.get(key) ?? { count: 0, size: 0 };
    e.count++;
    e.size += s.nodes[i + iSize]!;
    out.set(key, e);
  }
  return out;
}

const argv = process.argv.slice(2);
const files = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--top');
const args = new SoakArgs(argv.filter((a) => !files.includes(a)), USAGE, ['top'], []);
const TOP = args.number('top', 40);
if (files.length < 1 || files.length > 2) {
  process.stderr.write(USAGE);
  process.exit(1);
}
const a = summarize(files[0]!);
const b = files.length === 2 ? summarize(files[1]!) : undefined;
const total = (m: Summary): { count: number; size: number } =>
  [...m.values()].reduce((t, e) => ({ count: t.count + e.count, size: t.size + e.size }), { count: 0, size: 0 });
const n = (v: number): string => v.toLocaleString('en-US');
if (b === undefined) {
  const rows = [...a.entries()].sort((x, y) => y[1].size - x[1].size).slice(0, TOP);
  const t = total(a);
  process.stdout.write(`${files[0]}: ${n(t.count)} nodes, ${n(t.size)} bytes\n\n${formatTable(['type and constructor', 'count', 'self bytes'],
    rows.map(([k, e]) => [k, n(e.count), n(e.size)]), 1)}\n`);
} else {
  const keys = new Set([...a.keys(), ...b.keys()]);
  const rows = [...keys].map((k) => {
    const x = a.get(k) ?? { count: 0, size: 0 };
    const y = b.get(k) ?? { count: 0, size: 0 };
    return { k, dc: y.count - x.count, ds: y.size - x.size, c: y.count, s: y.size };
  }).sort((x, y) => Math.abs(y.ds) - Math.abs(x.ds) || Math.abs(y.dc) - Math.abs(x.dc)).slice(0, TOP);
  const [ta, tb] = [total(a), total(b)];
  process.stdout.write(`${files[0]} → ${files[1]}: nodes ${n(ta.count)} → ${n(tb.count)}, bytes ${n(ta.size)} → ${n(tb.size)} `
    + `(${tb.size >= ta.size ? '+' : ''}${n(tb.size - ta.size)})\n\n`
    + `${formatTable(['type and constructor', 'Δ count', 'Δ self bytes', 'count (B)', 'self bytes (B)'],
      rows.map((r) => [r.k, n(r.dc), n(r.ds), n(r.c), n(r.s)]), 1)}\n`);
}
