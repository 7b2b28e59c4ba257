/**
 * Deposit addresses: stable per (user, chain), derived from a hash so that restarts give the same addresses,
 * shaped like the chain's own (0x… hex for EVM chains, T… for TRON, bc1q… for Bitcoin). A tag chain has one
 * platform address and a per-user memo (`payment_id`). The book remembers every address issued (each issue is
 * a journaled record, wallet-store.ts) so that a withdrawal to one of them is recognised as internal, also
 * after a restart.
 */
import { createHash } from 'node:crypto';
import type { ChainSpec } from './chain-spec.js';

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function alphabet(bytes: Buffer, chars: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += chars[bytes[i % bytes.length]! % chars.length];
  return out;
}

/** An address of `chain`'s shape for the seed text. */
export function shapedAddress(chain: string, seed: string): string {
  const h = digest(`${chain}|${seed}`);
  if (chain === 'TRX') return `T${alphabet(h, B58, 33)}`;
  if (chain === 'BTC') return `bc1q${alphabet(h, BECH32, 38)}`;
  return `0x${h.toString('hex').slice(0, 40)}`;
}

export interface DepositAddress {
  readonly address: string;
  /** Tag/memo ('' on chains without tags). */
  readonly memo: string;
}

export class AddressBook {
  readonly #owners = new Map<string, number>();
  /** `currency/chain/uid` of every address issued. */
  readonly #issued = new Set<string>();

  /** The address of `uid` on `spec` (a pure function of them; `issued` says whether it was handed out). */
  addressOf(uid: number, spec: ChainSpec): DepositAddress {
    return spec.isTag
      ? { address: shapedAddress(spec.chain, 'platform'), memo: String(uid) }
      : { address: shapedAddress(spec.chain, `user:${uid}`), memo: '' };
  }

  /** True once the address of `uid` on `spec` was issued (remembered). */
  issued(uid: number, spec: ChainSpec): boolean {
    return this.#issued.has(`${spec.currency}/${spec.chain}/${uid}`);
  }

  /** Records that `address` (and `memo`) of `currency` on `chain` was issued to `uid`. */
  remember(currency: string, chain: string, uid: number, address: string, memo: string): void {
    this.#issued.add(`${currency}/${chain}/${uid}`);
    this.#owners.set(key(chain, address, memo), uid);
  }

  /** The user an address (and memo, on tag chains) was issued to, or 0. */
  ownerOf(spec: ChainSpec, address: string, memo: string): number {
    return this.#owners.get(key(spec.chain, address, spec.isTag ? memo : '')) ?? 0;
  }
}

const key = (chain: string, address: string, memo: string): string => `${chain}|${address}|${memo}`;

/** A transaction hash for a record id (hex, 64 digits; 0x-prefixed on EVM-shaped chains). */
export function txidFor(chain: string, id: string): string {
  const hex = digest(`tx|${chain}|${id}`).toString('hex');
  return chain === 'BTC' || chain === 'TRX' ? hex : `0x${hex}`;
}
