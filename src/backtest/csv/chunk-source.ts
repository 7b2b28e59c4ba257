/**
 * Streams a file's bytes in chunks, gunzipping when the file starts with the gzip magic (1f 8b), whatever its
 * name. Memory stays at about one chunk plus zlib's window: files are never loaded whole.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';

export const CHUNK_BYTES = 1 << 20;

/** True when the file begins with the gzip magic bytes. */
export async function isGzip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const b = new Uint8Array(2);
    const { bytesRead } = await fh.read(b, 0, 2, 0);
    return bytesRead === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

export interface ChunkSource {
  /** The next chunk, or null at the end. */
  next(): Promise<Uint8Array | null>;
  /** File bytes read so far (compressed bytes for gzip), for progress. */
  readonly bytesRead: number;
  readonly fileBytes: number;
  close(): void;
}

/** Opens `path` as a chunk source (plain or gzip). @allocates */
export async function openChunks(path: string, chunkBytes = CHUNK_BYTES): Promise<ChunkSource> {
  const gz = await isGzip(path);
  const fh = await open(path, 'r');
  const fileBytes = (await fh.stat()).size;
  await fh.close();
  const raw = createReadStream(path, { highWaterMark: chunkBytes });
  const stream = gz ? raw.pipe(createGunzip({ chunkSize: chunkBytes })) : raw;
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return {
    async next() {
      const r = await it.next();
      return r.done === true ? null : r.value;
    },
    get bytesRead() { return raw.bytesRead; },
    fileBytes,
    close() { raw.destroy(); if (gz) stream.destroy(); },
  };
}
