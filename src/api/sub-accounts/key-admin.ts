/**
 * API-key management: the keys as declared through the API (what the management routes show at once) and
 * their application to the KeyStore (what authentication reads), after `delayMs`.
 *
 * Durability: every change is a key record (auth/identity-records.ts, `key/<key>`) that the route puts
 * through the engine (so it is journaled); `apply` is what both the route (after the record's command
 * succeeded) and the start-up restore call, so the live and the restored state are one projection.
 *
 * Contract:
 * - `delayMs` 0 applies every change to authentication at once. Otherwise a change reaches it at the record's
 *   `live_at_ms` (wall clock), in the order changes were made (timers of equal delay fire in order), so a key
 *   created and then deleted within the delay never authenticates. Gate takes up to 5 minutes.
 * - At most `limit` keys per account, counting declared keys (a key being deleted no longer counts).
 * - The secret is kept in the KeyStore and the record only; what the routes render never carries it.
 * Keys from the config file appear with name '' and timestamps 0 the first time an account is read.
 */
import { randomBytes } from 'node:crypto';
import type { KeyStore, PermGroup } from '../auth/key-store.js';
import { apiKeyOf, type KeyRecordValue, type LiveKeyValue, liveOf, permsFromRecord, permsToRecord } from '../auth/identity-records.js';

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

type Fields = Pick<KeyRecord, 'name' | 'perms' | 'ipWhitelist'>;

export class KeyAdmin {
  readonly limit: number;
  readonly delayMs: number;
  readonly #keys: KeyStore;
  readonly #declared = new Map<number, Map<string, KeyRecord>>();
  /** Secrets of declared keys (the record of a change carries it). */
  readonly #secrets = new Map<string, string>();
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

  /** The record of a new key of `uid` (fresh id and secret); nothing changes until `apply`. @allocates */
  created(uid: number, fields: Fields & { readonly mode: number }, nowS: number): { key: string; value: KeyRecordValue } {
    const key = randomBytes(16).toString('hex');
    const secret = randomBytes(32).toString('hex');
    return { key, value: this.#value(uid, secret, fields.mode, fields, nowS, nowS, false, null) };
  }

  /** The record of declared key `key` with new name, perms and whitelist (mode stays); undefined when unknown. */
  updated(uid: number, key: string, fields: Fields, nowS: number): KeyRecordValue | undefined {
    const old = this.#of(uid).get(key);
    if (old === undefined) return undefined;
    return this.#value(uid, this.#secretOf(key), old.mode, fields, old.createdAt, nowS, false, liveOf({ ...old, ipWhitelist: old.ipWhitelist }));
  }

  /** The record withdrawing declared key `key`; undefined when unknown. */
  removed(uid: number, key: string, nowS: number): KeyRecordValue | undefined {
    const old = this.#of(uid).get(key);
    if (old === undefined) return undefined;
    return this.#value(uid, this.#secretOf(key), old.mode, old, old.createdAt, nowS, true, liveOf(old));
  }

  /**
   * Applies key record `value` of `key`: declared at once; authentication at its `live_at_ms` (see the module
   * header). `restoring`: at start-up, where authentication must first show `prev` if the change is not due.
   */
  apply(key: string, value: KeyRecordValue, restoring = false): void {
    const declared = this.#of(value.uid);
    if (value.deleted) {
      declared.delete(key);
    } else {
      declared.set(key, {
        key, uid: value.uid, mode: value.mode, name: value.name, perms: permsFromRecord(value.perms), ipWhitelist: [...value.ip],
        createdAt: value.created_s, updatedAt: value.updated_s,
      });
    }
    this.#secrets.set(key, value.secret);
    const target: LiveKeyValue | null = value.deleted ? null : value;
    const wait = value.live_at_ms - Date.now();
    if (wait <= 0) return this.#setLive(key, value, target);
    if (restoring) this.#setLive(key, value, value.prev);
    const t = setTimeout(() => { this.#timers.delete(t); this.#setLive(key, value, target); }, wait);
    t.unref();
    this.#timers.add(t);
  }

  /** Cancels changes not yet applied (server shutdown). */
  dispose(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  #value(uid: number, secret: string, mode: number, fields: Fields, createdS: number, updatedS: number, deleted: boolean,
    prev: LiveKeyValue | null): KeyRecordValue {
    return {
      uid, secret, mode, name: fields.name, perms: permsToRecord(fields.perms), ip: [...fields.ipWhitelist],
      created_s: createdS, updated_s: updatedS, deleted, live_at_ms: this.delayMs === 0 ? 0 : Date.now() + this.delayMs, prev,
    };
  }

  #secretOf(key: string): string {
    return this.#secrets.get(key) ?? this.#keys.get(key)?.secret ?? '';
  }

  #setLive(key: string, value: KeyRecordValue, live: LiveKeyValue | null): void {
    if (live === null) this.#keys.removeKey(key);
    else this.#keys.putKey(apiKeyOf(key, value, live));
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
}
