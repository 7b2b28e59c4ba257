/**
 * The one way a response leaves: status, Gate's timing and trace headers, JSON body, written inside
 * `res.cork` (handlers may answer from a callback, where uWS does not cork for us), at most once, and never
 * after the client aborted (uWS invalidates the response object then).
 *
 * Durability: every response passes the gateway's OutputGate: it is rendered now (from the state it
 * describes) and written once the journal covers that state, so a client never reads an effect a crash
 * could take back. If the journal fails first, a 503 JournalFailed goes out instead.
 *
 * On a node of the replicated log (docs/scale-out.md, read-your-writes), every response also carries
 * `X-Rm-Seq`: the last engine seq the state it was rendered from includes (on the leader, every command it
 * acknowledges is at or below it; a follower sent `X-Rm-Min-Seq` with that value answers from a state that
 * includes it).
 */
import { randomBytes } from 'node:crypto';
import type { HttpResponse } from 'uWebSockets.js';
import { ResultCode } from '../../core/result-code.js';
import type { OutputGate } from '../../engine/output-gate.js';
import { gateError } from '../../gate/error-catalogue.js';
import { wallMicros } from './wall-time.js';

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: '200 OK', 201: '201 Created', 202: '202 Accepted', 204: '204 No Content', 400: '400 Bad Request', 401: '401 Unauthorized', 403: '403 Forbidden',
  404: '404 Not Found', 405: '405 Method Not Allowed', 413: '413 Payload Too Large', 415: '415 Unsupported Media Type',
  429: '429 Too Many Requests', 500: '500 Internal Server Error', 503: '503 Service Unavailable',
};

/** Told of every answer written (api/metrics.ts): the route's slot, the status and the in/out times. Must not allocate. */
export interface ReplySink {
  sent(slot: number, status: number, inUs: number, outUs: number): void;
}

/** Trace ids: a random per-process prefix and a counter (unique, cheap). */
const TRACE_PREFIX = randomBytes(6).toString('hex');
let traceCounter = 0;

export class Reply {
  #aborted = false;
  #sent = false;
  readonly #res: HttpResponse;
  readonly #inUs: number;
  readonly #clientRequestId: string;
  readonly #gate: OutputGate | undefined;
  readonly #sink: ReplySink | undefined;
  readonly #seqOf: (() => number) | undefined;
  /** The matched route's metrics slot (ReplySink; 0: none matched). */
  slot = 0;
  /** Rate-limit figures of the request (limit < 0: not limited, no headers). */
  #rateLimit = -1;
  #rateRemain = 0;
  #rateResetMs = 0;

  /**
   * `gate`: the gateway's output gate (absent: written at once, for front-less uses); `sink`: metrics; `seqOf`:
   * the engine seq the state includes now, written as X-Rm-Seq (a node of the replicated log; absent: no header).
   */
  constructor(res: HttpResponse, inUs: number, clientRequestId: string, gate?: OutputGate, sink?: ReplySink, seqOf?: () => number) {
    this.#sink = sink;
    this.#seqOf = seqOf;
    this.#res = res;
    this.#inUs = inUs;
    this.#clientRequestId = clientRequestId;
    this.#gate = gate;
    res.onAborted(() => { this.#aborted = true; });
  }

  /** True once a response was written or the client went away. */
  get finished(): boolean {
    return this.#sent || this.#aborted;
  }

  /**
   * Makes the answer carry Gate's X-Gate-RateLimit-Limit, -Requests-Remain and -Reset-Timestamp (ms) headers
   * with these figures (rate-limit.ts). Three numbers kept; three headers written with the answer.
   */
  rateLimit(limit: number, remain: number, resetMs: number): void {
    this.#rateLimit = limit;
    this.#rateRemain = remain;
    this.#rateResetMs = resetMs;
  }

  /** Sends `body` as JSON with `status` and extra headers. A second call is ignored. */
  json(status: number, body: unknown, headers?: Readonly<Record<string, string>>): void {
    this.#send(status, JSON.stringify(body), headers);
  }

  /** Sends `text`, already JSON, with `status` (replies rendered by a dedicated writer). */
  jsonText(status: number, text: string, headers?: Readonly<Record<string, string>>): void {
    this.#send(status, text, headers);
  }

  /** Sends `text` with `status` and its own Content-Type (not JSON: the metrics exposition). */
  text(status: number, text: string, contentType: string): void {
    this.#send(status, text, { 'Content-Type': contentType });
  }

  /** Sends 204 with no body (and no Content-Type). A second call is ignored. */
  noContent(): void {
    this.#send(204, undefined);
  }

  /** Sends the catalogue's error for `code` ({label, message}); `message` overrides the catalogue's text. */
  error(code: number, message?: string): void {
    const e = gateError(code);
    this.json(e.status, { label: e.label, message: message ?? e.message });
  }

  #send(status: number, text: string | undefined, headers?: Readonly<Record<string, string>>): void {
    if (this.finished) return;
    this.#sent = true;
    const gate = this.#gate;
    const seq = this.#seqOf === undefined ? -1 : this.#seqOf();
    if (gate === undefined || gate.passes()) return this.#write(status, text, headers, seq);
    gate.hold(() => this.#write(status, text, headers, seq), () => {
      const e = gateError(ResultCode.JournalFailed);
      this.#write(e.status, JSON.stringify({ label: e.label, message: e.message }), undefined, -1);
    });
  }

  /** `headers` may carry its own Content-Type (else JSON's); `seq` ≥ 0 is written as X-Rm-Seq. */
  #write(status: number, text: string | undefined, headers: Readonly<Record<string, string>> | undefined, seq: number): void {
    if (this.#aborted) return;
    const res = this.#res;
    res.cork(() => {
      const outUs = wallMicros();
      this.#sink?.sent(this.slot, status, this.#inUs, outUs);
      res.writeStatus(STATUS_TEXT[status] ?? String(status));
      if (text !== undefined && headers?.['Content-Type'] === undefined) res.writeHeader('Content-Type', 'application/json');
      res.writeHeader('X-In-Time', String(this.#inUs));
      res.writeHeader('X-Out-Time', String(outUs));
      res.writeHeader('X-Svc-Trace-ID', `${TRACE_PREFIX}${(++traceCounter).toString(16).padStart(8, '0')}`);
      if (this.#clientRequestId !== '') res.writeHeader('X-Client-Request-Id', this.#clientRequestId);
      if (seq >= 0) res.writeHeader('X-Rm-Seq', String(seq));
      if (this.#rateLimit >= 0) {
        res.writeHeader('X-Gate-RateLimit-Requests-Remain', String(this.#rateRemain));
        res.writeHeader('X-Gate-RateLimit-Limit', String(this.#rateLimit));
        res.writeHeader('X-Gate-RateLimit-Reset-Timestamp', String(this.#rateResetMs));
      }
      if (headers !== undefined) for (const [k, v] of Object.entries(headers)) res.writeHeader(k, v);
      if (text === undefined) res.endWithoutBody();
      else res.end(text);
    });
  }
}
