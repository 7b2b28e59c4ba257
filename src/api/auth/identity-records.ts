/**
 * Identity as records (engine/records.ts): accounts added or locked at run time, API keys (secrets
 * included: the journal file is private) and sub-account profiles, so that a restart brings them back.
 * The config's users and keys are the base the server starts from; records override them.
 *
 *   acct/<uid>  {main, locked}                       an account's main uid (0: a main account) and frozen flag
 *   key/<key>   KeyRecordValue                       a key as declared, and when authentication sees it
 *   sub/<uid>   {login_name, remark, email, type, create_time}   a sub-account's profile
 *
 * A key record says what the key is (`deleted` when withdrawn) and when authentication switches to it
 * (`live_at_ms`, wall clock: key changes may take effect after a delay, docs/sub-accounts.md); `prev` is
 * what authentication used before (the key's previous declared state, null when it had none). A restart
 * inside the delay serves `prev` until `live_at_ms` (a key changed twice inside one delay comes back at its
 * last but one state, then its last).
 */
import type { ApiKey, PermGroup } from './key-store.js';
import { isPermGroup } from './key-store.js';

export const ACCOUNT_PREFIX = 'acct/';
export const KEY_PREFIX = 'key/';
export const PROFILE_PREFIX = 'sub/';

export interface AccountRecordValue {
  readonly main: number;
  readonly locked: boolean;
}

/** What authentication checks of a key. */
export interface LiveKeyValue {
  readonly mode: number;
  readonly perms: readonly (readonly [string, boolean])[];
  readonly ip: readonly string[];
}

export interface KeyRecordValue extends LiveKeyValue {
  readonly uid: number;
  readonly secret: string;
  readonly name: string;
  /** Seconds since the epoch (engine clock), as the management routes show them. */
  readonly created_s: number;
  readonly updated_s: number;
  readonly deleted: boolean;
  /** Wall-clock ms from which authentication uses this state (0: at once). */
  readonly live_at_ms: number;
  /** What authentication used before `live_at_ms`; null: the key did not authenticate. */
  readonly prev: LiveKeyValue | null;
}

export interface ProfileRecordValue {
  readonly login_name: string;
  readonly remark: string;
  readonly email: string;
  readonly type: number;
  readonly create_time: number;
}

export const accountKey = (uid: number): string => `${ACCOUNT_PREFIX}${uid}`;
export const keyKey = (key: string): string => `${KEY_PREFIX}${key}`;
export const profileKey = (uid: number): string => `${PROFILE_PREFIX}${uid}`;

/** The id after a record key's prefix. */
export const idOf = (recordKey: string, prefix: string): string => recordKey.slice(prefix.length);

/** Perms in record form (group, read-only pairs) from the key store's map. */
export const permsToRecord = (perms: ReadonlyMap<PermGroup, boolean>): [string, boolean][] => [...perms];

/** The key store's perms map from record form (unknown groups dropped). */
export function permsFromRecord(perms: readonly (readonly [string, boolean])[]): Map<PermGroup, boolean> {
  const out = new Map<PermGroup, boolean>();
  for (const [g, ro] of perms) if (isPermGroup(g)) out.set(g, ro);
  return out;
}

/** The live part of an ApiKey. */
export const liveOf = (k: Pick<ApiKey, 'mode' | 'perms' | 'ipWhitelist'>): LiveKeyValue =>
  ({ mode: k.mode, perms: permsToRecord(k.perms), ip: [...k.ipWhitelist] });

/** The ApiKey authentication uses for `v` in state `live`. */
export const apiKeyOf = (key: string, v: KeyRecordValue, live: LiveKeyValue): ApiKey =>
  ({ key, secret: v.secret, uid: v.uid, mode: live.mode, perms: permsFromRecord(live.perms), ipWhitelist: [...live.ip] });
