/**
 * The route table: (method, path pattern) → route. Patterns are paths with `{name}` segments; static paths
 * are found in a Map, patterned ones by a scan, in registration order, of the patterns with the path's number
 * of segments and its group segment (`spot` in `/api/v4/spot/orders/{id}`), a handful each. A path known under
 * another method answers METHOD_NOT_ALLOWED, an unknown one NOT_FOUND.
 * Cost of a match: a Map lookup for a static path; for a patterned one a split of the path, two Map lookups and
 * the bucket's literal comparisons; the params array is built only for the route that matches.
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

/** The segment that names a route's group: `spot` in `/api/v4/spot/orders/{id}` (segments '', 'api', 'v4', 'spot'). */
const GROUP_SEGMENT = 3;

/** Bucket key of a path's segments: their count and the group segment ('' when that segment is a parameter). */
const bucketKey = (segments: readonly string[], group: string): string => `${segments.length}/${group}`;

export class Router {
  readonly #static = new Map<string, Map<string, Route>>();
  readonly #patterned: Patterned[] = [];
  /** Patterned routes by bucketKey, in registration order; a pattern whose group segment is a parameter is in the '' bucket of its length. */
  readonly #buckets = new Map<string, Patterned[]>();

  add(route: Route): this {
    if (route.pattern.includes('{')) {
      const segments = route.pattern.split('/');
      const p = { segments, route };
      this.#patterned.push(p);
      const g = segments[GROUP_SEGMENT] ?? '';
      const key = bucketKey(segments, g.startsWith('{') ? '' : g);
      let bucket = this.#buckets.get(key);
      if (bucket === undefined) this.#buckets.set(key, bucket = []);
      bucket.push(p);
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
    const named = this.#buckets.get(bucketKey(segments, segments[GROUP_SEGMENT] ?? ''));
    const open = this.#buckets.get(bucketKey(segments, ''));
    if (named === undefined && open === undefined) return 'not-found';
    let pathKnown = false;
    // Registration order across both buckets: the first pattern registered that matches wins, as in one list.
    for (const p of mergeInOrder(named, open, this.#patterned)) {
      if (!literalsMatch(p.segments, segments)) continue;
      if (p.route.method !== method) {
        // Known under another method only where its parameters decode (as a match of that method would need).
        if (!pathKnown && paramsOf(p.segments, segments) !== undefined) pathKnown = true;
        continue;
      }
      const params = paramsOf(p.segments, segments);
      if (params !== undefined) return { route: p.route, params };
    }
    return pathKnown ? 'method-not-allowed' : 'not-found';
  }
}

/** The patterns of `a` and `b` in their order in `all` (one of them may be absent; usually one is). */
function mergeInOrder(a: Patterned[] | undefined, b: Patterned[] | undefined, all: readonly Patterned[]): readonly Patterned[] {
  if (a === undefined) return b!;
  if (b === undefined) return a;
  return all.filter((p) => a.includes(p) || b.includes(p));
}

/** True when every literal segment of `pattern` equals the path's and no parameter segment is empty. */
function literalsMatch(pattern: readonly string[], path: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.charCodeAt(0) === 123 /* { */) {
      if (path[i] === '') return false;
    } else if (p !== path[i]) {
      return false;
    }
  }
  return true;
}

/** The percent-decoded parameters of a path whose literals match `pattern`; undefined when one does not decode. */
function paramsOf(pattern: readonly string[], path: readonly string[]): string[] | undefined {
  const params: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i]!.charCodeAt(0) !== 123 /* { */) continue;
    try {
      params.push(decodeURIComponent(path[i]!));
    } catch {
      return undefined;
    }
  }
  return params;
}
