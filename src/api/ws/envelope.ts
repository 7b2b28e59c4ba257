/**
 * Gate's WebSocket v4 envelope: parsing of client frames and the server frames built from them.
 *
 * Client → server (subscriptions, pings):
 *   {"id": 1, "time": <s>, "channel": "spot.trades", "event": "subscribe"|"unsubscribe", "payload": [...],
 *    "auth": {"method": "api_key", "KEY": "...", "SIGN": "..."}}     (auth on private channels only;
 *                                                                      /ws/sim: {"method": "sim_token", "token": "..."})
 *   {"time": <s>, "channel": "spot.ping"}                             (answered with spot.pong)
 * Client → server (order entry): event "api" with payload {req_id, timestamp, api_key, signature, req_param}.
 *
 * Server → client: acknowledgements and errors echo `id`, `channel`, `event` and `payload`, and carry
 * `result.status` ("success" / "fail") and, on failure, `error: {code, message}`; updates are
 * {time, time_ms, channel, event: "update", result}.
 * Error codes (Gate's): 1 malformed request (not JSON, not an object, unknown channel or event), 2 invalid
 * argument (payload, unknown currency pair), 4 authentication failed (message: a JSON {label, message}),
 * and ours: 5 too many requests on this connection.
 * Everything here is pure and allocates only the frames it returns.
 */

export const WsErrorCode = { BadRequest: 1, InvalidArgument: 2, AuthFailed: 4, TooManyRequests: 5 } as const;
export type WsErrorCode = (typeof WsErrorCode)[keyof typeof WsErrorCode];

/** Per-connection identity echoed in acknowledgements. */
export interface ConnectionInfo {
  readonly connId: string;
}

/**
 * The `auth` object of a private subscription: Gate's `{method: "api_key", KEY, SIGN}`, or the control plane's
 * `{method: "sim_token", token}` on `/ws/sim` (then KEY and SIGN are '').
 */
export interface SubscriptionAuth {
  readonly method: string;
  readonly KEY: string;
  readonly SIGN: string;
  /** The control-plane token of a `sim_token` auth; undefined otherwise. */
  readonly token?: string | undefined;
}

/** A well-formed client frame (fields checked for type only; channel semantics are checked later). */
export interface WsRequest {
  /** Echoed as received (number or string); undefined when absent. */
  readonly id: number | string | undefined;
  /** Seconds, as sent (0 when absent). */
  readonly time: number;
  readonly channel: string;
  readonly event: string;
  readonly payload: unknown;
  readonly auth: SubscriptionAuth | undefined;
}

export type Parsed =
  | { readonly ok: true; readonly req: WsRequest }
  | { readonly ok: false; readonly code: WsErrorCode; readonly message: string; readonly id: number | string | undefined;
      readonly channel: string; readonly event: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const idOf = (v: unknown): number | string | undefined =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= 64) ? v : undefined;
const short = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 64) : '');

/** Parses one text frame. Never throws. */
export function parseFrame(text: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, code: WsErrorCode.BadRequest, message: 'request is not valid JSON', id: undefined, channel: '', event: '' };
  }
  if (!isObject(json)) {
    return { ok: false, code: WsErrorCode.BadRequest, message: 'request must be a JSON object', id: undefined, channel: '', event: '' };
  }
  const id = idOf(json.id);
  const channel = short(json.channel);
  const event = short(json.event);
  const fail = (message: string): Parsed => ({ ok: false, code: WsErrorCode.BadRequest, message, id, channel, event });
  if (typeof json.channel !== 'string' || channel === '') return fail('channel is required');
  if (json.event !== undefined && typeof json.event !== 'string') return fail('event must be a string');
  const time = json.time;
  if (time !== undefined && (typeof time !== 'number' || !Number.isFinite(time))) return fail('time must be a number of seconds');
  let auth: SubscriptionAuth | undefined;
  if (json.auth !== undefined && json.auth !== null) {
    const a = json.auth;
    if (isObject(a) && a.method === 'sim_token') {
      if (typeof a.token !== 'string') return fail('auth must be {method: "sim_token", token}');
      auth = { method: a.method, KEY: '', SIGN: '', token: a.token };
    } else {
      if (!isObject(a) || typeof a.KEY !== 'string' || typeof a.SIGN !== 'string') return fail('auth must be {method, KEY, SIGN}');
      auth = { method: typeof a.method === 'string' ? a.method : '', KEY: a.KEY, SIGN: a.SIGN };
    }
  }
  return { ok: true, req: { id, time: time ?? 0, channel, event, payload: json.payload, auth } };
}

const seconds = (us: number): number => Math.floor(us / 1e6);
const millis = (us: number): number => Math.floor(us / 1e3);

/** Acknowledgement of a subscribe/unsubscribe. */
export function ackFrame(conn: ConnectionInfo, req: WsRequest, nowUs: number): string {
  return JSON.stringify({
    time: seconds(nowUs), time_ms: millis(nowUs), id: req.id, conn_id: conn.connId, trace_id: conn.connId,
    channel: req.channel, event: req.event, payload: req.payload ?? [], result: { status: 'success' },
  });
}

/** Error reply for a request (parsed or not). */
export function errorFrame(conn: ConnectionInfo, r: { readonly id: number | string | undefined; readonly channel: string;
  readonly event: string; readonly payload?: unknown }, code: WsErrorCode, message: string, nowUs: number): string {
  return JSON.stringify({
    time: seconds(nowUs), time_ms: millis(nowUs), id: r.id, conn_id: conn.connId, trace_id: conn.connId,
    channel: r.channel, event: r.event, payload: Array.isArray(r.payload) ? r.payload : [],
    error: { code, message }, result: { status: 'fail' },
  });
}

/** Code 4's message: Gate sends the REST error object as a JSON string. */
export const authErrorMessage = (label: string, message: string): string => JSON.stringify({ label, message });

/** Reply to `spot.ping` (`futures.ping`: channel `futures.pong`). */
export function pongFrame(conn: ConnectionInfo, req: WsRequest, nowUs: number, channel = 'spot.pong'): string {
  return JSON.stringify({
    time: seconds(nowUs), time_ms: millis(nowUs), id: req.id, conn_id: conn.connId, channel, event: '', result: null,
  });
}

/** An update push whose `result` is already JSON text (`resultJson`): the same bytes as updateFrame of its value. */
export function updateFrameOfJson(channel: string, resultJson: string, nowUs: number): string {
  return `{"time":${seconds(nowUs)},"time_ms":${millis(nowUs)},"channel":${JSON.stringify(channel)},"event":"update","result":${resultJson}}`;
}

/** An update push (one JSON text shared by every subscriber of a topic); `event` "all" for a full snapshot. */
export function updateFrame(channel: string, result: unknown, nowUs: number, event = 'update'): string {
  return JSON.stringify({ time: seconds(nowUs), time_ms: millis(nowUs), channel, event, result });
}
