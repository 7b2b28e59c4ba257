// A small WebSocket test client over the `ws` package (installed with ccxt): connect, send JSON, and wait for
// frames matching a predicate, with a bounded wait. Subscription signatures are computed here with
// node:crypto, independently of src/api/ws/ws-auth.ts.
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';

interface RawSocket {
  on(event: 'message', cb: (data: Buffer) => void): void;
  on(event: 'open', cb: () => void): void;
  on(event: 'close', cb: (code: number, reason: Buffer) => void): void;
  on(event: 'error', cb: (e: Error) => void): void;
  send(data: string | Buffer): void;
  close(): void;
  terminate(): void;
  pause(): void;
  resume(): void;
  readyState: number;
}
type RawSocketClass = new (url: string, opts?: Record<string, unknown>) => RawSocket;

export const WS = (createRequire(import.meta.url)('ws') as { WebSocket: RawSocketClass }).WebSocket;

export type Frame = Record<string, unknown>;

export class TestSocket {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | undefined;
  readonly #ws: RawSocket;
  #waiters: (() => void)[] = [];

  private constructor(ws: RawSocket) {
    this.#ws = ws;
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString('utf8')) as Frame);
      this.#wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString('utf8') };
      this.#wake();
    });
    ws.on('error', () => this.#wake());
  }

  static open(port: number, path = '/ws/v4/'): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WS(`ws://127.0.0.1:${port}${path}`);
      const s = new TestSocket(ws);
      ws.on('open', () => resolve(s));
      ws.on('error', reject);
    });
  }

  get raw(): RawSocket {
    return this.#ws;
  }

  send(frame: unknown): void {
    this.#ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first frame (at or after index `from`) matching `pred`; rejects after `timeoutMs`. */
  async next(pred: (f: Frame) => boolean, timeoutMs = 3000, from = 0): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const f = this.frames.slice(from).find(pred);
      if (f !== undefined) return f;
      if (this.closed !== undefined) throw new Error(`socket closed (${this.closed.code}) while waiting`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-3))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiters.push(() => { clearTimeout(t); resolve(); });
      });
    }
  }

  /** Sends a request with `id` and waits for the frame echoing that id. */
  async request(frame: Frame & { id: number | string }, timeoutMs = 3000): Promise<Frame> {
    const from = this.frames.length;
    this.send(frame);
    return this.next((f) => f.id === frame.id || f.request_id === frame.id, timeoutMs, from);
  }

  close(): void {
    this.#ws.close();
  }

  #wake(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const f of w) f();
  }
}

export const nowS = (): number => Math.floor(Date.now() / 1000);

/** A private subscription's auth object. */
export function subAuth(key: string, secret: string, channel: string, event: string, time: number): Frame {
  const SIGN = createHmac('sha512', secret).update(`channel=${channel}&event=${event}&time=${time}`).digest('hex');
  return { method: 'api_key', KEY: key, SIGN };
}

/** An order-entry request frame signed as ccxt signs it. */
export function apiRequest(key: string, secret: string, channel: string, reqId: string, reqParam: unknown, ts = nowS()): Frame & { id: string } {
  const signature = createHmac('sha512', secret).update(`api\n${channel}\n${JSON.stringify(reqParam)}\n${ts}`).digest('hex');
  return { id: reqId, time: ts, channel, event: 'api',
    payload: { req_id: reqId, timestamp: String(ts), api_key: key, signature, req_param: reqParam } };
}

/** True for one error reply: a failed subscription or request, a rejected order entry, or a batch of failures. */
export const isErrorReply = (f: Frame): boolean => {
  // A batch placement answers 200 with one failure per order.
  const batch = (f.data as { result?: unknown } | undefined)?.result;
  if (Array.isArray(batch) && batch.length > 0 && batch.every((o) => (o as { succeeded?: boolean }).succeeded === false)) return true;
  if (f.error !== undefined) return (f.result as { status?: string } | undefined)?.status === 'fail';
  const data = f.data as { errs?: { label?: string } } | undefined;
  return typeof data?.errs?.label === 'string' && f.ack === false;
};
