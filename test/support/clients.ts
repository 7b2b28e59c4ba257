// The real clients the integration tests drive, pointed at a simulator on 127.0.0.1: unchanged ccxt (gate
// class, every API group's URL overridden as in reference A.1) and gate-api's ApiClient, plus how a rejected
// gate-api call is read (HTTP status and Gate label).
import ccxt from 'ccxt';
import * as GateApi from 'gate-api';

export type CcxtGate = InstanceType<typeof ccxt.gate>;

/** ccxt gate's REST sections (urls.api.public / urls.api.private) that the tests point at the simulator. */
export const PUBLIC_GROUPS = ['wallet', 'futures', 'margin', 'delivery', 'spot', 'options', 'sub_accounts', 'earn', 'unified', 'flash_swap', 'loan'];
export const PRIVATE_GROUPS = ['withdrawals', 'wallet', 'futures', 'margin', 'delivery', 'spot', 'options', 'subAccounts', 'unified', 'rebate', 'earn',
  'account', 'loan', 'otc', 'flash_swap'];

/** ccxt's `urls.api` REST sections with every group at `http://127.0.0.1:port/api/v4`. */
export function restUrls(port: number): { public: Record<string, string>; private: Record<string, string> } {
  const base = `http://127.0.0.1:${port}/api/v4`;
  return { public: Object.fromEntries(PUBLIC_GROUPS.map((k) => [k, base])), private: Object.fromEntries(PRIVATE_GROUPS.map((k) => [k, base])) };
}

/**
 * ccxt's gate class with every REST group at `http://127.0.0.1:port/api/v4`; `options` merge into ccxt's (its
 * defaults otherwise: loadMarkets reads spot, the swap contracts of usdt and btc, delivery and options).
 */
export function ccxtGate(port: number, apiKey: string, secret: string, options: Record<string, unknown> = {}): CcxtGate {
  return new ccxt.gate({
    apiKey, secret, enableRateLimit: false, timeout: 5000,
    urls: { api: restUrls(port) },
    options,
  });
}

/** gate-api's client for the simulator at `port`, signing with `key`/`secret`. */
export function gateApiClient(port: number, key: string, secret: string): GateApi.ApiClient {
  const c = new GateApi.ApiClient(`http://127.0.0.1:${port}/api/v4`);
  c.setApiKeySecret(key, secret);
  return c;
}

/** The HTTP status and Gate label of a gate-api call that must fail. */
export async function rejection(p: Promise<unknown>): Promise<[number, string]> {
  try {
    await p;
  } catch (e) {
    const r = (e as { response?: { status: number; data: { label: string } } }).response;
    return [r?.status ?? 0, r?.data.label ?? ''];
  }
  throw new Error('call did not fail');
}

export type CcxtProGate = InstanceType<typeof ccxt.pro.gate>;

/**
 * ccxt.pro's gate class for the simulator at `port`: every REST group, the spot socket (/ws/v4/) and the futures
 * sockets (/v4/ws/fx/{settle}); markets of spot and swap. `uid` is what ccxt.pro signs private futures channels with.
 */
export function ccxtProGate(port: number, apiKey: string, secret: string, uid?: string): CcxtProGate {
  const ws = `ws://127.0.0.1:${port}`;
  return new ccxt.pro.gate({
    apiKey, secret, ...(uid === undefined ? {} : { uid }), enableRateLimit: false, timeout: 5000,
    urls: { api: { ...restUrls(port), spot: `${ws}/ws/v4/`, swap: { usdt: `${ws}/v4/ws/fx/usdt`, btc: `${ws}/v4/ws/fx/btc` } } },
    options: { fetchMarkets: { types: ['spot', 'swap'] } },
  });
}
