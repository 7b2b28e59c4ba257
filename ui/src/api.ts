/**
 * Where the server is and how to ask it. Every address is derived from the page's own: the page is served at
 * `<base>/ui/`, so REST is `<base>/api/v4`, the control plane `<base>/sim` (and `<base>/ws/sim`) and the sockets
 * `ws(s)://<host><base>/…`.
 * A reverse proxy that serves the simulator under a path prefix (or another host and port) keeps working.
 *
 * The control-plane token is typed in by the operator, kept in this tab's sessionStorage, and sent only in the
 * `X-Sim-Token` header of /sim/ requests and in the `auth` of `sim.user` subscriptions on `/ws/sim`: never in a URL,
 * never logged.
 */

/** The path before `/ui/` of this page ('' when the server is at the root). */
export const basePath: string = location.pathname.replace(/\/ui(\/.*)?$/, '');

const wsOrigin = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`;
/** The spot WebSocket v4 endpoint. */
export const spotSocketUrl = `${wsOrigin}${basePath}/ws/v4/`;
/** The perpetual futures WebSocket endpoint of a settle currency (`usdt`, `btc`). */
export const futuresSocketUrl = (settle: string): string => `${wsOrigin}${basePath}/v4/ws/fx/${encodeURIComponent(settle)}`;
/** The delivery futures WebSocket endpoint of a settle currency. */
export const deliverySocketUrl = (settle: string): string => `${wsOrigin}${basePath}/v4/ws/delivery/${encodeURIComponent(settle)}`;
/** The options WebSocket endpoint of a settle currency. */
export const optionsSocketUrl = (settle: string): string => `${wsOrigin}${basePath}/v4/ws/options/${encodeURIComponent(settle)}`;
/** The control plane's socket (a user's view, `sim.user`): subscriptions carry the token in their `auth`, never in the URL. */
export const simSocketUrl = `${wsOrigin}${basePath}/ws/sim`;

/** A refusal: the server's Gate label and message (or a network failure as `NETWORK_ERROR`). */
export class ApiError extends Error {
  constructor(readonly status: number, readonly label: string, message: string) {
    super(message);
  }

  /** `LABEL: message`, as the dashboard shows it. */
  override toString(): string {
    return this.message === '' ? this.label : `${this.label}: ${this.message}`;
  }
}

async function request<T>(path: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${basePath}${path}`, { ...init, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' });
  } catch (e) {
    throw new ApiError(0, 'NETWORK_ERROR', e instanceof Error ? e.message : String(e));
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const b = (body ?? {}) as { label?: unknown; message?: unknown };
    throw new ApiError(res.status, typeof b.label === 'string' ? b.label : `HTTP_${res.status}`, typeof b.message === 'string' ? b.message : '');
  }
  return body as T;
}

/** A public GET of Gate's REST API: `rest('/spot/tickers')`. */
export const rest = <T>(path: string): Promise<T> => request<T>(`/api/v4${path}`, { method: 'GET', headers: { Accept: 'application/json' } });

const TOKEN_KEY = 'ringmatch.simToken';

/** The control-plane token of this tab ('' when none was given). */
export function simToken(): string {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Keeps `token` for this tab only ('' forgets it). */
export function setSimToken(token: string): void {
  try {
    if (token === '') sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage refused (private mode): the token is then asked again after a reload.
  }
}

/** A control-plane request: `sim('POST', '/sim/deposits', {...})`, the token (if any) in X-Sim-Token. */
export function sim<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = simToken();
  if (token !== '') headers['X-Sim-Token'] = token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return request<T>(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

/** What to say about a failed request: its label and message, with a hint when the control plane refused access. */
export function describeError(e: unknown): string {
  if (!(e instanceof ApiError)) return String(e);
  if (e.label === 'FORBIDDEN') {
    return `${e.toString()} — the control plane takes the server's admin_token (or SIM_ADMIN_TOKEN) in the token field; without one it serves loopback callers only`;
  }
  return e.toString();
}
