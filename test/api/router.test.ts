// The router against its definition: a path equal to a static pattern is answered by that pattern's routes
// alone (METHOD_NOT_ALLOWED when none has the method); otherwise the first registered patterned route that
// matches (literal segments equal, parameters non-empty and percent-decodable) answers, a path that only
// another method's route matches is METHOD_NOT_ALLOWED, and anything else NOT_FOUND. The oracle below is that definition as a
// plain scan of every route; the router's bucketed lookup must agree with it on every route of the server
// and on hostile paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Match, type Route, Router } from '../../src/api/router.js';
import type { Simulator } from '../../src/main.js';
import { Prng } from '../../src/core/prng.js';
import { startTestSimulator } from './http-helpers.js';

function oracle(routes: readonly Route[], method: string, path: string): Match {
  const fixed = routes.filter((r) => !r.pattern.includes('{') && r.pattern === path);
  if (fixed.length > 0) {
    const r = fixed.find((x) => x.method === method);
    return r === undefined ? 'method-not-allowed' : { route: r, params: [] };
  }
  const segments = path.split('/');
  let known = false;
  for (const r of routes) {
    if (!r.pattern.includes('{')) continue;
    const pattern = r.pattern.split('/');
    if (pattern.length !== segments.length) continue;
    const params: string[] = [];
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      const p = pattern[i]!;
      if (!p.startsWith('{')) { ok = p === segments[i]; continue; }
      if (segments[i] === '') { ok = false; continue; }
      try { params.push(decodeURIComponent(segments[i]!)); } catch { ok = false; }
    }
    if (!ok) continue;
    if (r.method === method) return { route: r, params };
    known = true;
  }
  return known ? 'method-not-allowed' : 'not-found';
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const PARAMS = ['BTC_USDT', '12345', 't-abc', 'usdt', '%41', '%ZZ', 'a%2Fb', '', 'orders', 'batch', '{x}'];

let sim: Simulator;
let routes: Route[];
let router: Router;

beforeAll(async () => {
  sim = await startTestSimulator();
  routes = sim.server.router.routes();
  router = new Router();
  for (const r of routes) router.add(r);
});
afterAll(async () => { await sim.close(); });

const agree = (method: string, path: string): void => {
  const want = oracle(routes, method, path);
  const got = router.match(method, path);
  if (typeof want === 'string') expect(got, `${method} ${path}`).toBe(want);
  else expect(got, `${method} ${path}`).toEqual({ route: want.route, params: want.params });
};

describe('router', () => {
  it('registers the server routes (static and patterned)', () => {
    expect(routes.some((r) => r.pattern.includes('{'))).toBe(true);
    expect(routes.some((r) => !r.pattern.includes('{'))).toBe(true);
  });

  it('agrees with the definition on every route, under every method, with good and hostile parameters', () => {
    let checked = 0;
    for (const r of routes) {
      for (const value of PARAMS) {
        const path = r.pattern.replace(/\{[^}]+\}/g, value);
        for (const m of METHODS) { agree(m, path); checked++; }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('agrees on random mutations of route paths', () => {
    const rng = new Prng(7);
    const pick = <T>(a: readonly T[]): T => a[Math.floor(rng.nextFloat() * a.length)]!;
    for (let n = 0; n < 20_000; n++) {
      const segs = pick(routes).pattern.replace(/\{[^}]+\}/g, () => pick(PARAMS)).split('/');
      const k = Math.floor(rng.nextFloat() * 4);
      if (k === 1) segs.splice(Math.floor(rng.nextFloat() * segs.length), 1);
      else if (k === 2) segs.splice(Math.floor(rng.nextFloat() * segs.length), 0, pick(PARAMS));
      else if (k === 3) segs[Math.floor(rng.nextFloat() * segs.length)] = pick(routes).pattern.split('/')[3] ?? '';
      agree(pick(METHODS), segs.join('/'));
    }
  });
});
