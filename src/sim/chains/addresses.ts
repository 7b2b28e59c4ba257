/**
 * Deposit addresses: stable per (user, chain), derived from a hash so that restarts give the same addresses,
 * shaped like the chain's own (0x… hex for EVM chains, T… for TRON, bc1q… for Bitcoin). A tag chain has one
 * platform address and a per-user memo (`payment_id`). The book remembers every address it issued so that a
 * withdrawal to one of them is recognised as internal.
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

  /** The address of `uid` on `spec` (issued and remembered). */
  addressOf(uid: number, spec: ChainSpec): DepositAddress {
    const a: DepositAddress = spec.isTag
      ? { address: shapedAddress(spec.chain, 'platform'), memo: String(uid) }
      : { address: shapedAddress(spec.chain, `user:${uid}`), memo: '' };
    this.#owners.set(key(spec.chain, a.address, a.memo), uid);
    return a;
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
