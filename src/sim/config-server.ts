/**
 * The config file's server fields (sim/config-file.ts lists them): address, admin token, clock, signature
 * window, rate limits, proxy trust, body limit, engine and API-key settings. Throws ConfigError naming the field.
 */
import { bool, fail, integer, type Obj, object, optional, string } from './config-check.js';

/** Validates the server fields of the top-level object `o`. */
export function validateServer(o: Obj): void {
  optional(o, 'host', '', string);
  optional(o, 'port', '', integer(0, 65535));
  optional(o, 'admin_token', '', string);
  optional(o, 'clock', '', (c, cp) => {
    const co = object(c, cp, ['type', 'start_ms'], ['type']);
    if (co.type !== 'wall' && co.type !== 'sim') fail(`${cp}.type`, 'must be "wall" or "sim"');
    optional(co, 'start_ms', cp, integer(0, Number.MAX_SAFE_INTEGER / 1000));
  });
  optional(o, 'auth_window_s', '', integer(1, 86_400));
  optional(o, 'rate_limits', '', (r, rp) => {
    if (typeof r === 'boolean') return;
    const ro = object(r, rp, ['enabled', 'scale']);
    optional(ro, 'enabled', rp, bool);
    optional(ro, 'scale', rp, (s, sp) => (typeof s === 'number' && s > 0 && s <= 1e6 ? s : fail(sp, 'must be a number in (0, 1e6]')));
  });
  optional(o, 'trust_proxy', '', bool);
  optional(o, 'body_limit', '', integer(1024, 64 << 20));
  optional(o, 'cancelled_order_retention_s', '', integer(0, 1_000_000_000));
  optional(o, 'engine', '', (e, ep) => {
    const eo = object(e, ep, ['runner', 'shards', 'journal', 'fsync', 'snapshots', 'log']);
    if (eo.runner !== undefined && eo.runner !== 'threaded' && eo.runner !== 'inline' && eo.runner !== 'auto') {
      fail(`${ep}.runner`, 'must be "threaded", "inline" or "auto"');
    }
    optional(eo, 'shards', ep, integer(1, 64));
    optional(eo, 'journal', ep, (j, jp) => (typeof j === 'string' && j !== '' ? j : fail(jp, 'must be a file path')));
    optional(eo, 'fsync', ep, (f, fp) => (f === 'batch' || f === 'never' || (typeof f === 'number' && Number.isInteger(f) && f >= 0 && f <= 60_000)
      ? f : fail(fp, 'must be "batch", "never" or an interval in ms (0..60000)')));
    optional(eo, 'snapshots', ep, (v, vp) => {
      if (v === false) return;
      const so = object(v, vp, ['every_commands', 'every_seconds', 'keep', 'dir', 'prune_journal']);
      optional(so, 'every_commands', vp, integer(0, Number.MAX_SAFE_INTEGER));
      optional(so, 'every_seconds', vp, integer(0, 31_536_000));
      optional(so, 'keep', vp, integer(1, 1000));
      optional(so, 'dir', vp, (d, dp) => (typeof d === 'string' && d !== '' ? d : fail(dp, 'must be a directory path')));
      optional(so, 'prune_journal', vp, bool);
    });
    optional(eo, 'log', ep, (v, vp) => validateLog(v, vp, eo.journal !== undefined));
  });
  optional(o, 'api_key_limit', '', integer(1, 1000));
  optional(o, 'api_key_change_delay_ms', '', integer(0, 3_600_000));
}

/** engine.log (sim/config-file.ts LogConfig): the replicated command log. */
function validateLog(v: unknown, p: string, hasJournal: boolean): void {
  const lo = object(v, p, ['type', 'servers', 'stream', 'lease_ms', 'checkpoint_every', 'snapshot_every', 'replicas', 'address', 'read_wait_ms'], ['type', 'servers', 'stream']);
  if (lo.type !== 'jetstream') fail(`${p}.type`, 'must be "jetstream"');
  const servers = lo.servers;
  if (!Array.isArray(servers) || servers.length === 0) fail(`${p}.servers`, 'must be a non-empty array of nats:// URLs');
  (servers as unknown[]).forEach((s, i) => {
    if (typeof s !== 'string' || !/^(nats|tls|ws|wss):\/\/[^\s]+$/.test(s)) fail(`${p}.servers[${i}]`, 'must be a URL such as "nats://127.0.0.1:4222"');
  });
  if (typeof lo.stream !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(lo.stream)) fail(`${p}.stream`, 'must be 1-64 letters, digits, "_" or "-"');
  optional(lo, 'lease_ms', p, integer(300, 600_000));
  optional(lo, 'checkpoint_every', p, integer(0, Number.MAX_SAFE_INTEGER));
  optional(lo, 'snapshot_every', p, integer(0, Number.MAX_SAFE_INTEGER));
  optional(lo, 'address', p, string);
  optional(lo, 'read_wait_ms', p, integer(0, 60_000));
  optional(lo, 'replicas', p, (r, rp) => (r === 1 || r === 3 || r === 5 ? r : fail(rp, 'must be 1, 3 or 5')));
  if (!hasJournal) fail(p, 'needs engine.journal: the leader keeps its own fsync\'d journal beside the replicated log (docs/scale-out.md)');
}
