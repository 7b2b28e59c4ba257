/**
 * The journal file of `engine.journal`, made ready before the engine opens it: its directory is created when
 * missing, and a path that cannot be a journal (a directory, a file or directory the process may not write)
 * is refused with one line naming the path and what to do, instead of a file-system error and its stack.
 */
import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../core/invariant.js';

const reason = (e: unknown): string => {
  const err = e as NodeJS.ErrnoException;
  return err.code === undefined ? String(err.message) : `${err.code}: ${err.message.replace(/^[A-Z]+: /, '').replace(/, [a-z]+ '.*'$/, '')}`;
};

/** Creates the journal's directory when missing and checks the path is writable. Throws ConfigError. */
export function ensureJournalDirectory(path: string): void {
  const full = resolve(path);
  const dir = dirname(full);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new ConfigError(`config: engine.journal: cannot create the directory ${dir} for the journal ${path} (${reason(e)}); `
      + 'choose a path in a directory you can write');
  }
  let exists = true;
  try {
    if (!statSync(full).isFile()) throw new ConfigError(`config: engine.journal: ${path} is not a file (a directory?); give the path of a journal file`);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    exists = false; // absent: the engine creates it
  }
  try {
    // Opening proves what the engine will need: read and append an existing journal, or create a new one.
    if (exists) closeSync(openSync(full, 'r+'));
    else {
      closeSync(openSync(full, 'wx'));
      unlinkSync(full);
    }
  } catch (e) {
    throw new ConfigError(`config: engine.journal: cannot ${exists ? 'open' : 'create'} ${path} (${reason(e)}); `
      + 'choose a path you can read and write, or fix its permissions');
  }
}
