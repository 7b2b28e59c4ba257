// The markdown that README.md and docs/ show a user, read by the tests that run it as written
// (test/integration/doc-examples.it.test.ts, doc-commands.it.test.ts): fenced code blocks and the shell
// commands in them and in the prose.
import { readdirSync, readFileSync } from 'node:fs';

export interface Block { readonly lang: string; readonly code: string }

/** README.md and every markdown file of docs/ (a new page is included without a change here). */
export function docFiles(): string[] {
  return ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** The fenced code blocks of a markdown file. */
export function blocks(file: string): Block[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

/**
 * The shell commands a markdown file shows, whitespace collapsed: every line of its ```sh blocks (lines ending in
 * `\` joined to the next; `#` comments, whole-line or after the command, removed) and every inline `npm …` span of
 * its prose.
 */
export function shellCommands(file: string): string[] {
  const out: string[] = [];
  for (const b of blocks(file)) {
    if (b.lang !== 'sh') continue;
    for (const line of b.code.replace(/\\\n/g, ' ').split('\n')) {
      const command = line.replace(/(^|\s)#.*$/, '').replace(/\s+/g, ' ').trim();
      if (command !== '') out.push(command);
    }
  }
  const prose = readFileSync(file, 'utf8').replace(/^```\w*\n[\s\S]*?^```$/gm, '');
  for (const m of prose.matchAll(/`(npm [^`]+)`/g)) out.push(m[1]!.replace(/\s+/g, ' ').trim());
  return out;
}
