/**
 * Structured logs at the edge (docs/operations.md, "Logs"): pino, one JSON object a line, for what happens
 * around the exchange, never per request: the server listening (address, markets, engine, the API keys' ids
 * and permissions), a handler that threw, the engine stopping, the server closing.
 *
 * Never a secret: records carry key ids, never key secrets, signatures or the control-plane token; as a
 * second line of defence, the fields that could hold one (secret, sign, token, admin_token, headers.sign,
 * headers.key's secret companions) are censored wherever they appear in a record, up to three levels deep.
 */
import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

const SECRET_FIELDS = ['secret', 'sign', 'SIGN', 'token', 'admin_token', 'adminToken', 'simToken', 'x-sim-token'];
/** pino's redact paths: each secret-bearing field at the top and up to three levels down. */
export const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`]);

export interface LogOptions {
  /** Default 'info'. */
  readonly level?: string | undefined;
  /** Default: stderr (fd 2), written synchronously so a record of a crash is not lost. */
  readonly destination?: DestinationStream | undefined;
}

/** A logger named `ringmatch` with the redaction of the module header. */
export function createLogger(options: LogOptions = {}): Logger {
  return pino({
    name: 'ringmatch', level: options.level ?? 'info', base: { pid: process.pid },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  }, options.destination ?? pino.destination({ fd: 2, sync: true }));
}
