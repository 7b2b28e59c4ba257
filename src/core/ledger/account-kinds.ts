/**
 * Account kinds and account keys.
 *
 * An account is (uid, kind, sub). `sub` is 0 for kinds that exist once per user, the market index for
 * isolated Margin, and the settle currency index for Futures and Delivery. Only Spot is used today; the other
 * kinds already validate and store so that margin, futures and options need no redesign.
 *
 * Key layout (a safe integer): uid × 2^20 + kind × 2^16 + sub, with uid < 2^31, kind < 16, sub < 2^16.
 */

export const AccountKind = {
  Spot: 1,
  Margin: 2,
  CrossMargin: 3,
  Unified: 4,
  Futures: 5,
  Delivery: 6,
  Options: 7,
} as const;
export type AccountKind = (typeof AccountKind)[keyof typeof AccountKind];

/** Gate's names for the account kinds (as in wallet transfers). */
export const ACCOUNT_KIND_NAMES: Readonly<Record<AccountKind, string>> = {
  [AccountKind.Spot]: 'spot',
  [AccountKind.Margin]: 'margin',
  [AccountKind.CrossMargin]: 'cross_margin',
  [AccountKind.Unified]: 'unified',
  [AccountKind.Futures]: 'futures',
  [AccountKind.Delivery]: 'delivery',
  [AccountKind.Options]: 'options',
};

/** What a kind's `sub` indexes. */
export const SubIndex = { None: 0, Market: 1, Currency: 2 } as const;

/** The sub-index meaning of each kind. */
export function subIndexOf(kind: number): number {
  if (kind === AccountKind.Margin) return SubIndex.Market;
  if (kind === AccountKind.Futures || kind === AccountKind.Delivery) return SubIndex.Currency;
  return SubIndex.None;
}

export const isAccountKind = (kind: number): boolean => (kind | 0) === kind && kind >= AccountKind.Spot && kind <= AccountKind.Options;

const TWO_20 = 1048576;
const TWO_16 = 65536;

/** The account key of (uid, kind, sub); arguments must already be validated. */
export const accountKey = (uid: number, kind: number, sub: number): number => uid * TWO_20 + kind * TWO_16 + sub;

/** Largest sub-index an account key can hold. */
export const MAX_SUB = TWO_16 - 1;
