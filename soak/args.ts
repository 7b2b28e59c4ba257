/**
 * Command-line flags of the soak commands: `--name value` or `--name=value`, booleans as `--name`. `--help`
 * (or `-h`) prints the usage and exits 0 before any work; an unknown flag or a bad value prints one line and
 * exits 1.
 */

export class SoakArgs {
  readonly #values = new Map<string, string>();
  readonly #flags = new Set<string>();

  /** Parses `argv`; `valued` names flags that take a value, `booleans` those that do not. */
  constructor(argv: readonly string[], readonly usage: string, valued: readonly string[], booleans: readonly string[]) {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(usage);
      process.exit(0);
    }
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]!;
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      if (!name.startsWith('--')) die(`unexpected argument ${a}`, usage);
      const key = name.slice(2);
      if (booleans.includes(key) && eq < 0) this.#flags.add(key);
      else if (valued.includes(key)) {
        const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined || v === '') die(`${name} needs a value`, usage);
        this.#values.set(key, v);
      } else die(`unknown flag ${name}`, usage);
    }
  }

  has(flag: string): boolean {
    return this.#flags.has(flag);
  }

  string(flag: string, fallback: string): string {
    return this.#values.get(flag) ?? fallback;
  }

  /** A positive number (integers only unless `fraction`). */
  number(flag: string, fallback: number, fraction = false): number {
    const v = this.#values.get(flag);
    if (v === undefined) return fallback;
    const n = Number(v.replaceAll('_', ''));
    if (!Number.isFinite(n) || n <= 0 || (!fraction && !Number.isSafeInteger(n))) die(`--${flag}: ${v} is not a positive ${fraction ? 'number' : 'integer'}`, this.usage);
    return n;
  }

  /** `a,b,c` or `a-b` (inclusive), positive integers; a single N means 1..N when `countMeansRange`. */
  list(flag: string, fallback: readonly number[], countMeansRange = false): number[] {
    const v = this.#values.get(flag);
    if (v === undefined) return [...fallback];
    const range = /^(\d+)-(\d+)$/.exec(v);
    let out: number[];
    if (range !== null) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      out = b >= a && b - a < 100_000 ? Array.from({ length: b - a + 1 }, (_, i) => a + i) : [];
    } else if (countMeansRange && /^\d+$/.test(v)) {
      out = Number(v) <= 100_000 ? Array.from({ length: Number(v) }, (_, i) => i + 1) : [];
    } else {
      out = v.split(',').map(Number);
    }
    if (out.length === 0 || out.some((n) => !Number.isSafeInteger(n) || n <= 0)) die(`--${flag}: ${v} is not a list of positive integers`, this.usage);
    return out;
  }

  /** One of `choices`. */
  choice<T extends string>(flag: string, choices: readonly T[], fallback: T): T {
    const v = this.#values.get(flag) ?? fallback;
    if (!(choices as readonly string[]).includes(v)) die(`--${flag}: must be one of ${choices.join(', ')}`, this.usage);
    return v as T;
  }
}

/** One line on stderr naming the mistake and the command's --help; exit 1. */
function die(message: string, usage: string): never {
  const command = /npm run (\S+)/.exec(usage)?.[1] ?? 'this command';
  process.stderr.write(`${command}: ${message} (${command} --help lists the flags)\n`);
  process.exit(1);
}
