/**
 * The route table: (method, path pattern) → route. Patterns are paths with `{name}` segments; static paths
 * are found in a Map, patterned ones by a scan of their (few) entries. A path known under another method
 * answers METHOD_NOT_ALLOWED, an unknown one NOT_FOUND.
 */
import type { PermGroup } from './auth/key-store.js';
import type { ApiRequest } from './http/api-request.js';
import type { Reply } from './http/reply.js';
import type { LimitClass } from './rate-limit.js';

export type Handler = (req: ApiRequest, reply: Reply) => void;

export type Access =
  /** No credentials. */
  | { readonly kind: 'public' }
  /** Gate's signed request; the key needs `group`. */
  | { readonly kind: 'private'; readonly group: PermGroup }
  /** The simulator's control plane (token or loopback). */
  | { readonly kind: 'sim' };

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Full path pattern, e.g. `/api/v4/spot/orders/{order_id}`. */
  readonly pattern: string;
  readonly access: Access;
  readonly limit: LimitClass;
  /** The body must be a JSON array (batch routes); otherwise an object when present. */
  readonly arrayBody?: boolean;
  readonly handler: Handler;
}

export type Match = { readonly route: Route; readonly params: string[] } | 'not-found' | 'method-not-allowed';

interface Patterned { readonly segments: readonly string[]; readonly route: Route }

export class Router {
  readonly #static = new Map<string, Map<string, Route>>();
  readonly #patterned: Patterned[] = [];

  add(route: Route): this {
    if (route.pattern.includes('{')) {
      this.#patterned.push({ segments: route.pattern.split('/'), route });
    } else {
      let byMethod = this.#static.get(route.pattern);
      if (byMethod === undefined) this.#static.set(route.pattern, byMethod = new Map<string, Route>());
      if (byMethod.has(route.method)) throw new Error(`route ${route.method} ${route.pattern} registered twice`);
      byMethod.set(route.method, route);
    }
    return this;
  }

  /** Every registered route (documentation, fuzz tests). @allocates */
  routes(): Route[] {
    return [...[...this.#static.values()].flatMap((m) => [...m.values()]), ...this.#patterned.map((p) => p.route)];
  }

  match(method: string, path: string): Match {
    const byMethod = this.#static.get(path);
    if (byMethod !== undefined) {
      const r = byMethod.get(method);
      return r === undefined ? 'method-not-allowed' : { route: r, params: [] };
    }
    const segments = path.split('/');
    let pathKnown = false;
    for (const p of this.#patterned) {
      const params = matchSegments(p.segments, segments);
      if (params === undefined) continue;
      if (p.route.method === method) return { route: p.route, params };
      pathKnown = true;
    }
    return pathKnown ? 'method-not-allowed' : 'not-found';
  }
}

function matchSegments(pattern: readonly string[], path: readonly string[]): string[] | undefined {
  if (pattern.length !== path.length) return undefined;
  const params: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const s = path[i]!;
    if (p.startsWith('{')) {
      if (s === '') return undefined;
      let v: string;
      try { v = decodeURIComponent(s); } catch { return undefined; }
      params.push(v);
    } else if (p !== s) {
      return undefined;
    }
  }
  return params;
}
