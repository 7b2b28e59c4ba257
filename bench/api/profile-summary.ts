/**
 * Where a server's CPU went: reads the largest V8 `.cpuprofile` in a directory (the main thread's; the module
 * loader's thread writes a small one beside it) (written by `node --cpu-prof`), and sums self time by area of the code and by function. Areas: the project's rooms (src/api/http, src/api,
 * src/gate, src/engine, src/core, …), uWebSockets.js, node internals and crypto, and V8's own buckets
 * ((garbage collector), (program) = native code outside JavaScript, mostly uWebSockets.js and syscalls here,
 * (idle)). Shares are of the non-idle samples.
 *
 *   node --import tsx bench/api/profile-summary.ts DIR [top]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The area a frame's code belongs to. */
function areaOf(functionName: string, url: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const src = url.indexOf('/src/');
  if (src >= 0 && !url.includes('node_modules')) {
    const parts = url.slice(src + 1).split('/');
    return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
  }
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length).split('/')[0]!;
  if (url.startsWith('node:')) return url.includes('crypto') ? 'node:crypto' : 'node internals';
  return url.includes('/bench/') ? 'bench' : 'other';
}

/** A text table of self time by area and the top functions; throws when DIR holds no profile. */
export function summarizeProfile(dir: string, top = 25): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size);
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  const prof = JSON.parse(readFileSync(files[0]!, 'utf8')) as Profile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const area = new Map<string, number>();
  const fn = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < prof.samples.length; i++) {
    const n = byId.get(prof.samples[i]!)!;
    const us = prof.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)') continue;
    total += us;
    const a = areaOf(functionName, url);
    area.set(a, (area.get(a) ?? 0) + us);
    const key = `${functionName || '(anonymous)'} ${url === '' ? '' : `${path.basename(url)}:${lineNumber + 1}`}`.trim();
    fn.set(key, (fn.get(key) ?? 0) + us);
  }
  const pct = (us: number): string => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
  const rows = (m: Map<string, number>, n: number): string[] => [...m].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([k, us]) => `  ${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  return [`${files[0]}: ${(total / 1000).toFixed(0)} ms of non-idle samples`, 'by area:', ...rows(area, 30),
    `top ${top} functions (self time):`, ...rows(fn, top)].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${summarizeProfile(process.argv[2] ?? '.', Number(process.argv[3] ?? 25))}\n`);
}
