/**
 * API keys and the account state authentication needs: key → (uid, secret, mode, permission groups,
 * IP whitelist); uid → (main account, frozen). Filled from the config at start-up, then from the identity
 * records (identity-records.ts) the journal brought back and those put at run time.
 */

/** Gate's key permission groups (SubAccountKey perms[].name). */
export const PERM_GROUPS = [
  'spot', 'margin', 'futures', 'delivery', 'options', 'wallet', 'withdrawal', 'unified', 'account', 'sub_accounts',
] as const;
export type PermGroup = (typeof PERM_GROUPS)[number];

export const isPermGroup = (v: unknown): v is PermGroup => typeof v === 'string' && (PERM_GROUPS as readonly string[]).includes(v);

/** `all` (every group, read-write) or Gate's list of { name, read_only }. */
export type PermsSpec = 'all' | readonly { readonly name: string; readonly read_only?: boolean | undefined }[];

export interface ApiKey {
  readonly key: string;
  readonly secret: string;
  readonly uid: number;
  /** 1 classic, 2 unified. */
  readonly mode: number;
  /** Group → read-only; a group absent from the map is not granted. */
  readonly perms: ReadonlyMap<PermGroup, boolean>;
  readonly ipWhitelist: readonly string[];
}

export interface AccountState {
  readonly mainUid: number;
  locked: boolean;
}

export function permsFrom(spec: PermsSpec | undefined): Map<PermGroup, boolean> {
  const out = new Map<PermGroup, boolean>();
  if (spec === undefined || spec === 'all') {
    for (const g of PERM_GROUPS) out.set(g, false);
    return out;
  }
  for (const p of spec) if (isPermGroup(p.name)) out.set(p.name, p.read_only === true);
  return out;
}

export class KeyStore {
  readonly #keys = new Map<string, ApiKey>();
  readonly #accounts = new Map<number, AccountState>();

  addAccount(uid: number, mainUid: number, locked = false): void {
    this.#accounts.set(uid, { mainUid, locked });
  }

  account(uid: number): AccountState | undefined {
    return this.#accounts.get(uid);
  }

  /** Registers a key; throws on a duplicate key id (a configuration error). */
  addKey(k: ApiKey): void {
    if (this.#keys.has(k.key)) throw new Error(`duplicate API key "${k.key}"`);
    this.#keys.set(k.key, k);
  }

  get(key: string): ApiKey | undefined {
    return this.#keys.get(key);
  }

  /** Keys of a user, in registration order. @allocates */
  keysOf(uid: number): ApiKey[] {
    return [...this.#keys.values()].filter((k) => k.uid === uid);
  }

  /** Registers `k` or replaces the key of the same id (records applied at run time and at start-up). */
  putKey(k: ApiKey): void {
    this.#keys.set(k.key, k);
  }

  /** Replaces the record of an existing key (same key id, same uid); false when the key is unknown. */
  replaceKey(k: ApiKey): boolean {
    const old = this.#keys.get(k.key);
    if (old === undefined || old.uid !== k.uid) return false;
    this.#keys.set(k.key, k);
    return true;
  }

  /** Removes a key; false when it is unknown. Requests signed with it then get INVALID_KEY. */
  removeKey(key: string): boolean {
    return this.#keys.delete(key);
  }

  /** The sub-accounts of `mainUid`, in registration order. @allocates */
  subAccountsOf(mainUid: number): number[] {
    const out: number[] = [];
    for (const [uid, a] of this.#accounts) if (a.mainUid === mainUid && mainUid !== 0) out.push(uid);
    return out;
  }
}
