// A bound on how long a test waits for one promise: the socket tests' "first message within N ms".

/** `p`'s value, or a failure `${what}: nothing within ${ms} ms` when it takes longer; the timer is cleared either way. */
export async function within<T>(what: string, p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms); });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}
