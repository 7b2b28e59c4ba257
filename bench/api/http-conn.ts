/**
 * A raw HTTP/1.1 client connection for load generators: one `node:net` keep-alive socket with at most one
 * request in flight, whose answer is framed by its Content-Length (the servers measured always send one).
 * Costs per answer: one header search and one small regex; chunks are concatenated only when an answer
 * arrives in pieces. Used by the HTTP benchmark's generator and by soak:server's.
 */
import net from 'node:net';

/** Called with the status, the whole answer and where its body starts. */
export type OnAnswer = (status: number, answer: Buffer, bodyAt: number) => void;

export class Conn {
  #acc: Buffer | undefined;
  sentAt = 0;
  type = 0;
  onAnswer: OnAnswer = () => undefined;
  private constructor(readonly sock: net.Socket, private readonly fail: (e: Error) => void) {
    sock.setNoDelay(true);
    sock.on('data', (chunk: Buffer) => this.#onData(chunk));
    sock.on('error', (e) => fail(e));
  }
  static open(port: number, fail: (e: Error) => void): Promise<Conn> {
    return new Promise((resolve, reject) => {
      const sock = net.connect({ host: '127.0.0.1', port });
      sock.once('error', reject);
      sock.once('connect', () => {
        sock.off('error', reject);
        resolve(new Conn(sock, fail));
      });
    });
  }
  send(buf: Buffer, at: number, type: number): void {
    this.sentAt = at;
    this.type = type;
    this.sock.write(buf);
  }
  #onData(chunk: Buffer): void {
    const acc = this.#acc === undefined ? chunk : Buffer.concat([this.#acc, chunk]);
    const headEnd = acc.indexOf('\r\n\r\n');
    if (headEnd < 0) {
      this.#acc = acc;
      return;
    }
    const head = acc.toString('latin1', 0, headEnd);
    const len = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (len === null) return this.fail(new Error(`answer without Content-Length: ${head.slice(0, 200)}`));
    const total = headEnd + 4 + Number(len[1]);
    if (acc.length < total) {
      this.#acc = acc;
      return;
    }
    if (acc.length > total) return this.fail(new Error('bytes after a complete answer (one request is in flight)'));
    this.#acc = undefined;
    this.onAnswer(Number(head.slice(9, 12)), acc, headEnd + 4);
  }
}

export async function openAll(port: number, n: number, fail: (e: Error) => void): Promise<Conn[]> {
  return Promise.all(Array.from({ length: n }, () => Conn.open(port, fail)));
}
