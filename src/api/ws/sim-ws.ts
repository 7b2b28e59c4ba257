/**
 * The control plane's socket at `/ws/sim` (also `/ws/sim/`), on the connection machinery every endpoint shares
 * (ws-host.ts: envelope, output gate, frame limits, first pushes, slow-consumer cut-off). Not Gate's: it serves the
 * dashboard, which holds the control-plane token and no user's API key.
 *
 *   channel    payload         topic            pushes (`result`)
 *   sim.user   [uid, …]        sim.user|<uid>   the user's view (GET /sim/users/{uid}, routes/sim-user-view.ts):
 *                                               on subscribe, then whenever a command changed it (sim-user-pushes.ts)
 *
 * Access is the control plane's rule (routes/sim-access.ts), checked per subscription: the token in the frame's
 * `auth` — `{"method": "sim_token", "token": "<admin_token>"}` — when one is configured; without one, loopback callers
 * only (the address X-Forwarded-For names behind a trusted proxy, as over HTTP). A refusal is error 4 with the
 * label (`FORBIDDEN`); an unknown or malformed uid error 2. The token never travels in the URL. `sim.ping` →
 * `sim.pong`.
 */
import type { TemplatedApp } from 'uWebSockets.js';
import type { ApiDeps } from '../deps.js';
import { controlAccess } from '../routes/sim-access.js';
import { parseUid } from '../routes/sim-users.js';
import { MAX_PAYLOAD_ENTRIES, topicOf } from './channels.js';
import { WsErrorCode } from './envelope.js';
import { SIM_USER_CHANNEL, SimUserPushes } from './sim-user-pushes.js';
import { createWsHost, type WsHost, type WsOptions, type WsResolution } from './ws-host.js';

export const SIM_WS_PATHS = ['/ws/sim', '/ws/sim/'] as const;

/** The topics and users of a `sim.user` payload. */
function resolveUsers(deps: ApiDeps, payload: unknown): WsResolution<number> {
  const bad = (message: string): WsResolution<number> => ({ ok: false, code: WsErrorCode.InvalidArgument, message });
  if (!Array.isArray(payload) || payload.length === 0) return bad('payload must name user ids: ["10001", …]');
  if (payload.length > MAX_PAYLOAD_ENTRIES) return bad(`payload has more than ${MAX_PAYLOAD_ENTRIES} entries`);
  const uids: number[] = [];
  for (const x of payload) {
    const uid = typeof x === 'string' ? parseUid(x) : typeof x === 'number' ? parseUid(String(x)) : -1;
    if (uid < 0) return bad(`uid must be a positive integer: ${String(x).slice(0, 20)}`);
    if (deps.gateway.exchange.ledger.mainOf(uid) < 0) return bad(`unknown user: ${uid}`);
    uids.push(uid);
  }
  return { ok: true, value: { topics: uids.map((uid) => topicOf(SIM_USER_CHANNEL, String(uid))), targets: uids } };
}

/** Registers `/ws/sim` on `app`; returns the pushes (observing the gateway). */
export function registerSimWebSocket(app: TemplatedApp, deps: ApiDeps, options: WsOptions = {},
  host: WsHost = createWsHost(app, deps, options)): SimUserPushes {
  const pushes = new SimUserPushes(deps, host).attach(deps.gateway);
  deps.onClose.push(() => pushes.stop());
  host.serve<number>({
    paths: [...SIM_WS_PATHS],
    prefix: 'sim',
    isChannel: (channel) => channel === SIM_USER_CHANNEL,
    isPrivate: () => true,
    authorize: (req, c) => {
      const ip = deps.trustProxy && c.forwardedFor !== '' ? c.forwardedFor.split(',')[0]!.trim() : c.ip;
      return controlAccess(ip, req.auth?.token ?? '', deps.adminToken);
    },
    resolve: (_channel, payload) => resolveUsers(deps, payload),
    firstFrame: (_channel, topic, uid, nowUs) => pushes.firstFrame(uid, topic, nowUs),
  });
  return pushes;
}
