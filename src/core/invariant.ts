/** A broken internal invariant or a programmer error: never a business outcome (those are ResultCodes). */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

/** Configuration that cannot work (a market whose limits overflow exact integers, say). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Throws InvariantError when `ok` is falsy. Pass constant messages on hot paths. */
export function invariant(ok: unknown, message: string): asserts ok {
  if (!ok) throw new InvariantError(message);
}
