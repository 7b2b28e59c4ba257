/**
 * API-key management for sub-accounts: the keys as declared through the API (what the management routes
 * show at once) and their application to the KeyStore (what authentication reads), after `delayMs`.
 *
 * Contract:
 * - `delayMs` 0 applies every change before the call returns. Otherwise each change is applied by a timer
 *   after `delayMs` of wall time, in the order the changes were made (timers of equal delay fire in order),
 *   so a key created and then deleted within the delay never authenticates. Gate takes up to 5 minutes.
 * - At most `limit` keys per account, counting declared keys (a key being deleted no longer counts).
 * - The secret is kept in the KeyStore only; records here never carry it.
 * Keys from the config file appear with name '' and timestamps 0 the first time an account is read.
 */
import { randomBytes } from 'node:crypto';
import type { ApiKey, KeyStore, PermGroup } from '../auth/key-store.js';

export interface KeyRecord {
  readonly key: string;
  readonly uid: number;
  readonly mode: number;
  readonly name: string;
  readonly perms: ReadonlyMap<PermGroup, boolean>;
  readonly ipWhitelist: readonly string[];
  /** Seconds since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface KeyAdminOptions {
  /** Keys per account; default 20. */
  readonly limit?: number | undefined;
  /** Delay before a change reaches authentication, in ms; default 0 (immediate). */
  readonly delayMs?: number | undefined;
}

export const DEFAULT_KEY_LIMIT = 20;

export class KeyAdmin {
  readonly limit: number;
  readonly delayMs: number;
  readonly #keys: KeyStore;
  readonly #declared = new Map<number, Map<string, KeyRecord>>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(keys: KeyStore, options: KeyAdminOptions = {}) {
    this.#keys = keys;
    this.limit = options.limit ?? DEFAULT_KEY_LIMIT;
    this.delayMs = options.delayMs ?? 0;
  }

  /** The declared keys of `uid`, in creation order. @allocates */
  list(uid: number): KeyRecord[] {
    return [...this.#of(uid).values()];
  }

  get(uid: number, key: string): KeyRecord | undefined {
    return this.#of(uid).get(key);
  }

  /** True when `uid` may get another key. */
  hasRoom(uid: number): boolean {
    return this.#of(uid).size < this.limit;
  }

  /** Declares a new key (fresh id and secret); returns the record and the secret. */
  create(uid: number, fields: Omit<KeyRecord, 'key' | 'uid' | 'createdAt' | 'updatedAt'>, nowS: number): { record: KeyRecord; secret: string } {
    const key = randomBytes(16).toString('hex');
    const secret = randomBytes(32).toString('hex');
    const record: KeyRecord = { ...fields, key, uid, createdAt: nowS, updatedAt: nowS };
    this.#of(uid).set(key, record);
    this.#apply(() => this.#keys.addKey(toApiKey(record, secret)));
    return { record, secret };
  }

  /** Replaces name, perms and IP whitelist of a declared key (mode stays); false when unknown. */
  update(uid: number, key: string, fields: Pick<KeyRecord, 'name' | 'perms' | 'ipWhitelist'>, nowS: number): boolean {
    const keys = this.#of(uid);
    const old = keys.get(key);
    if (old === undefined) return false;
    const record: KeyRecord = { ...old, ...fields, updatedAt: nowS };
    keys.set(key, record);
    this.#apply(() => {
      const live = this.#keys.get(key);
      if (live !== undefined) this.#keys.replaceKey(toApiKey(record, live.secret));
    });
    return true;
  }

  /** Withdraws a declared key; false when unknown. */
  remove(uid: number, key: string): boolean {
    if (!this.#of(uid).delete(key)) return false;
    this.#apply(() => { this.#keys.removeKey(key); });
    return true;
  }

  /** Cancels changes not yet applied (server shutdown). */
  dispose(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  #of(uid: number): Map<string, KeyRecord> {
    let m = this.#declared.get(uid);
    if (m === undefined) {
      m = new Map<string, KeyRecord>();
      for (const k of this.#keys.keysOf(uid)) {
        m.set(k.key, { key: k.key, uid, mode: k.mode, name: '', perms: k.perms, ipWhitelist: k.ipWhitelist, createdAt: 0, updatedAt: 0 });
      }
      this.#declared.set(uid, m);
    }
    return m;
  }

  #apply(change: () => void): void {
    if (this.delayMs === 0) return change();
    const t = setTimeout(() => { this.#timers.delete(t); change(); }, this.delayMs);
    t.unref();
    this.#timers.add(t);
  }
}

const toApiKey = (r: KeyRecord, secret: string): ApiKey =>
  ({ key: r.key, secret, uid: r.uid, mode: r.mode, perms: r.perms, ipWhitelist: r.ipWhitelist });
