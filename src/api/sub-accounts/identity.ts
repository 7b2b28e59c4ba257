/**
 * Identity records applied to the server's stores (auth/identity-records.ts for the shapes): accounts to
 * the KeyStore, profiles to the sub-account directory, keys through the KeyAdmin. The routes apply a record
 * after its command succeeded; `restoreIdentity` applies every record the journal brought back at start-up,
 * over the config's users and keys. One projection for both.
 */
import { recordRows } from '../../engine/records.js';
import type { KeyStore } from '../auth/key-store.js';
import {
  ACCOUNT_PREFIX, type AccountRecordValue, idOf, KEY_PREFIX, type KeyRecordValue, PROFILE_PREFIX, type ProfileRecordValue,
} from '../auth/identity-records.js';
import type { ApiDeps } from '../deps.js';
import { directoryOf, type SubAccountProfile } from './directory.js';

/** Applies an account record. */
export function applyAccount(keys: KeyStore, uid: number, v: AccountRecordValue): void {
  keys.addAccount(uid, v.main, v.locked);
}

/** A profile record as the directory keeps it. */
export const profileOf = (v: ProfileRecordValue): SubAccountProfile =>
  ({ loginName: v.login_name, remark: v.remark, email: v.email, type: v.type, createTime: v.create_time });

/** The record of a profile. */
export const profileRecord = (p: SubAccountProfile): ProfileRecordValue =>
  ({ login_name: p.loginName, remark: p.remark, email: p.email, type: p.type, create_time: p.createTime });

/** Applies every identity record of the exchange (start-up, after the journal was replayed). */
export function restoreIdentity(deps: ApiDeps): void {
  const ex = deps.gateway.exchange;
  for (const r of recordRows(ex, ACCOUNT_PREFIX)) applyAccount(deps.keys, Number(idOf(r.key, ACCOUNT_PREFIX)), r.value as AccountRecordValue);
  const dir = directoryOf(deps);
  for (const r of recordRows(ex, PROFILE_PREFIX)) dir.add(Number(idOf(r.key, PROFILE_PREFIX)), profileOf(r.value as ProfileRecordValue));
  for (const r of recordRows(ex, KEY_PREFIX)) deps.keyAdmin.apply(idOf(r.key, KEY_PREFIX), r.value as KeyRecordValue, true);
}
