/**
 * GET /metrics: the Prometheus exposition of api/metrics.ts. Access as the control plane's (token in
 * X-Sim-Token, or loopback callers without one); counted in no rate-limit window of Gate's ('public', by IP).
 */
import type { ServerMetrics } from './metrics.js';
import type { Router } from './router.js';

export function registerMetricsRoute(router: Router, metrics: ServerMetrics): void {
  router.add({ method: 'GET', pattern: '/metrics', access: { kind: 'sim' }, limit: 'public',
    handler: (_req, reply) => {
      metrics.render().then(({ text, contentType }) => reply.text(200, text, contentType), (e: unknown) => {
        console.error('ringmatch: GET /metrics failed:', e);
        reply.json(500, { label: 'SERVER_ERROR', message: 'Internal server error' });
      });
    } });
}
