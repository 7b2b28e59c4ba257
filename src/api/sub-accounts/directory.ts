/**
 * Sub-account profiles (Gate's SubAccount: login name, remark, email, type, creation time) and who owns
 * whom. Ownership and the frozen flag live in the KeyStore (what authentication reads); the ledger knows
 * each sub-account's main through `addUser`. Profiles are records (`sub/<uid>`, auth/identity-records.ts)
 * put with the AddUser that creates the sub-account, so they are journaled and hashed; `add` applies one.
 * Sub-accounts from the config file get a default profile (`sub_<uid>`, created at 0).
 *
 * Uids and login names being created are reserved until their command completes, so two concurrent
 * creations never pick the same.
 *
 * One directory per server, shared by the route groups through `directoryOf(deps)`.
 */
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';

/** Gate's sub-account types. */
export const SubAccountType = { Normal: 1, CrossMargin: 3 } as const;

export interface SubAccountProfile {
  readonly loginName: string;
  readonly remark: string;
  readonly email: string;
  readonly type: number;
  /** Seconds since the epoch (engine clock). */
  readonly createTime: number;
}

/** First uid tried for a new sub-account; the next free one is taken. */
const FIRST_SUB_UID = 2_000_000;
const LOGIN_NAME = /^[A-Za-z0-9_]{1,64}$/;

export class SubAccountDirectory {
  readonly #deps: ApiDeps;
  readonly #profiles = new Map<number, SubAccountProfile>();
  readonly #logins = new Set<string>();
  readonly #reservedUids = new Set<number>();
  #nextUid = FIRST_SUB_UID;

  constructor(deps: ApiDeps) {
    this.#deps = deps;
  }

  /** The main account of `uid` (itself when it is a main account); 0 when unknown. */
  mainOf(uid: number): number {
    const a = this.#deps.keys.account(uid);
    if (a === undefined) return 0;
    return a.mainUid === 0 ? uid : a.mainUid;
  }

  /** True when `uid` is a sub-account. */
  isSub(uid: number): boolean {
    return (this.#deps.keys.account(uid)?.mainUid ?? 0) !== 0;
  }

  /** The sub-account `value` names (a uid as a string or number) when it belongs to `mainUid`, else SubAccountNotFound. */
  resolve(mainUid: number, value: unknown): number {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^[0-9]{1,10}$/.test(text)) return ResultCode.SubAccountNotFound;
    const uid = Number(text);
    const a = this.#deps.keys.account(uid);
    return a !== undefined && a.mainUid !== 0 && a.mainUid === mainUid ? uid : ResultCode.SubAccountNotFound;
  }

  /** Every uid of a comma-separated `sub_uid` list (all sub-accounts of `mainUid` when absent), or a negative code. */
  resolveList(mainUid: number, list: string | undefined): number[] | ResultCode {
    if (list === undefined || list === '') return this.#deps.keys.subAccountsOf(mainUid);
    const out: number[] = [];
    for (const part of list.split(',')) {
      const uid = this.resolve(mainUid, part.trim());
      if (uid < 0) return uid as ResultCode;
      if (!out.includes(uid)) out.push(uid);
    }
    return out;
  }

  profile(uid: number): SubAccountProfile {
    return this.#profiles.get(uid) ?? { loginName: `sub_${uid}`, remark: '', email: '', type: SubAccountType.Normal, createTime: 0 };
  }

  /** Ok, or InvalidParam for a malformed or taken login name (names are unique across the server). */
  checkLoginName(name: string): ResultCode {
    if (!LOGIN_NAME.test(name)) return ResultCode.InvalidParam;
    return this.#logins.has(name.toLowerCase()) ? ResultCode.InvalidParam : ResultCode.Ok;
  }

  /**
   * Reserves a uid no user has (ledger and key store) and `loginName` until `release`; returns the uid, or
   * InvalidParam when the login name is taken or being taken.
   */
  reserve(loginName: string): number {
    if (this.checkLoginName(loginName) !== ResultCode.Ok) return ResultCode.InvalidParam;
    const ledger = this.#deps.gateway.exchange.ledger;
    while (ledger.mainOf(this.#nextUid) >= 0 || this.#deps.keys.account(this.#nextUid) !== undefined
      || this.#reservedUids.has(this.#nextUid)) this.#nextUid++;
    this.#reservedUids.add(this.#nextUid);
    this.#logins.add(loginName.toLowerCase());
    return this.#nextUid;
  }

  /** Ends a reservation; `created`: the sub-account exists now (its login name stays taken). */
  release(uid: number, loginName: string, created: boolean): void {
    this.#reservedUids.delete(uid);
    if (!created) this.#logins.delete(loginName.toLowerCase());
  }

  /** Applies the profile record of a sub-account (just created, or restored at start-up). */
  add(uid: number, profile: SubAccountProfile): void {
    this.#profiles.set(uid, profile);
    this.#logins.add(profile.loginName.toLowerCase());
  }
}

const directories = new WeakMap<ApiDeps, SubAccountDirectory>();

/** The directory of the server `deps` belongs to (created on first use). */
export function directoryOf(deps: ApiDeps): SubAccountDirectory {
  let d = directories.get(deps);
  if (d === undefined) directories.set(deps, d = new SubAccountDirectory(deps));
  return d;
}
