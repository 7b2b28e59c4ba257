/**
 * Constructor options that point unchanged clients at a simulator on 127.0.0.1: ccxt's gate class (every REST
 * group's URL overridden, as the clients' reference shows), ccxt.pro's (plus the spot and futures sockets) and
 * gate-api's ApiClient (a base path and a key). Plain objects: no client library is imported.
 */
import { Agent } from 'node:http';

/** ccxt gate's REST sections (urls.api.public / urls.api.private) that are pointed at the simulator. */
const PUBLIC_GROUPS = ['wallet', 'futures', 'margin', 'delivery', 'spot', 'options', 'sub_accounts', 'earn', 'unified', 'flash_swap', 'loan'];
const PRIVATE_GROUPS = ['withdrawals', 'wallet', 'futures', 'margin', 'delivery', 'spot', 'options', 'subAccounts', 'unified', 'rebate', 'earn',
  'account', 'loan', 'otc', 'flash_swap'];

export interface CcxtRestUrls {
  readonly public: Readonly<Record<string, string>>;
  readonly private: Readonly<Record<string, string>>;
}

/** For `new ccxt.gate(options)`; ccxt's own defaults otherwise (markets of every type load). */
export interface CcxtOptions {
  readonly apiKey: string;
  readonly secret: string;
  readonly enableRateLimit: boolean;
  readonly urls: { readonly api: CcxtRestUrls };
}

/**
 * For `new ccxt.pro.gate(options)`: REST, the spot socket and the futures sockets; `uid` signs private futures
 * channels; `httpAgent` is what ccxt wants for plain ws:// URLs (else each client first awaits
 * `loadHttpProxyAgent()`).
 */
export interface CcxtProOptions {
  readonly httpAgent: Agent;
  readonly apiKey: string;
  readonly secret: string;
  readonly uid: string;
  readonly enableRateLimit: boolean;
  readonly urls: { readonly api: CcxtRestUrls & { readonly spot: string; readonly swap: { readonly usdt: string; readonly btc: string } } };
}

/** gate-api: `const c = new GateApi.ApiClient(basePath); c.setApiKeySecret(key, secret)`. */
export interface GateApiOptions {
  readonly basePath: string;
  readonly key: string;
  readonly secret: string;
}

interface Key { readonly uid: number; readonly key: string; readonly secret: string }

function restUrls(port: number): CcxtRestUrls {
  const base = `http://127.0.0.1:${port}/api/v4`;
  return { public: Object.fromEntries(PUBLIC_GROUPS.map((k) => [k, base])), private: Object.fromEntries(PRIVATE_GROUPS.map((k) => [k, base])) };
}

export function ccxtOptions(port: number, k: Key): CcxtOptions {
  // The simulator's rate limits are Gate's; ccxt's client-side throttle only slows a test down.
  return { apiKey: k.key, secret: k.secret, enableRateLimit: false, urls: { api: restUrls(port) } };
}

export function ccxtProOptions(port: number, k: Key): CcxtProOptions {
  const ws = `ws://127.0.0.1:${port}`;
  return {
    httpAgent: new Agent(), apiKey: k.key, secret: k.secret, uid: String(k.uid), enableRateLimit: false,
    urls: { api: { ...restUrls(port), spot: `${ws}/ws/v4/`, swap: { usdt: `${ws}/v4/ws/fx/usdt`, btc: `${ws}/v4/ws/fx/btc` } } },
  };
}
