/**
 * Market maker protection (Gate's options MMP), per (user, underlying), as journaled state:
 *
 *   OptionsSetMmp    uid, sub = underlying, price = window (ms, 0..5000; 0 disables), amount = frozen_period (ms,
 *                    0..86_400_000; 0: frozen until reset), iceberg = qty_limit and toUid = delta_limit (hundredths,
 *                    > 0). Sets the settings; a freeze in force stays; the window's fills start again.
 *   OptionsResetMmp  uid, sub = underlying: unfreezes (trigger and frozen-until back to 0). InvalidParam without
 *                    settings.
 *
 * The rule (options-orders.ts calls mmpFill at each fill, mmpFrozen at each place):
 *   - an MMP order is one placed with `mmp: true` (OptionsFlag.Mmp);
 *   - each fill of an MMP order of a user with settings (window > 0) and not frozen adds, for its underlying, its
 *     contracts (qty) and its delta (± contracts × multiplier × the contract's journaled delta: + bought,
 *     − sold) to the fills of the last `window` ms;
 *   - when Σ qty > qty_limit or |Σ delta| > delta_limit the underlying freezes: trigger_time_ms = the fill's time
 *     (ms), frozen_until_ms = trigger + frozen_period (0 with frozen_period 0: until reset), the window empties;
 *   - while frozen (trigger ≠ 0 and (frozen_until = 0 or now < frozen_until)), a new MMP order of that user on
 *     that underlying is refused (MmpFrozen) and its MMP fills count no further; the engine's edge cancels its
 *     open MMP orders there (CancelOrder with FinishAs MmpCancelled, engine/options/options-services.ts), seeing
 *     `mmpTriggers` grow.
 * Costs: a map lookup per MMP fill and place; the window holds at most the fills of `window` ms (a flat array,
 * shifted as fills age). Allocates on a user's first settings and per fill kept.
 */
import type { Command } from '../command.js';
import type { ExchangeContext } from '../exchange/context.js';
import { ResultCode } from '../result-code.js';
import type { OptionsState } from './options-state.js';

/** One (user, underlying)'s settings and state. Limits in hundredths; times in ms of the engine clock. */
export interface MmpState {
  window: number;
  frozenPeriod: number;
  qtyLimit: number;
  deltaLimit: number;
  triggerMs: number;
  frozenUntilMs: number;
  /** Fills of the window, flat: [time ms, contracts, delta in 10^-(mScale + 4) base units] per fill. */
  fills: number[];
}

/** Largest window and frozen period (ms), and limit (hundredths), a setting may carry. */
export const MMP_WINDOW_MAX = 5000;
export const MMP_FROZEN_MAX = 86_400_000;
export const MMP_LIMIT_MAX = 100_000_000_000_000;

/** True while (uid, underlying `ui`) is frozen at engine time `timeUs`. */
export function mmpFrozen(S: OptionsState, uid: number, ui: number, timeUs: number): boolean {
  const m = S.mmpOf(uid, ui);
  return m !== undefined && m.triggerMs !== 0 && (m.frozenUntilMs === 0 || timeUs / 1000 < m.frozenUntilMs);
}

/** A fill of `lots` of contract `ci` by an MMP order of `uid` (bought: `buy`) at `timeUs` (see the module comment). */
export function mmpFill(S: OptionsState, uid: number, ci: number, buy: boolean, lots: number, timeUs: number): void {
  const k = S.contracts[ci]!;
  const m = S.mmpOf(uid, k.u);
  if (m === undefined || m.window === 0 || mmpFrozen(S, uid, k.u, timeUs)) return;
  const now = Math.floor(timeUs / 1000);
  const f = m.fills;
  let drop = 0;
  while (drop < f.length && f[drop]! <= now - m.window) drop += 3;
  if (drop > 0) f.splice(0, drop);
  const u = S.underlyings[k.u]!;
  f.push(now, lots, (buy ? 1 : -1) * lots * Number(u.mUnits) * S.delta[ci]!);
  let qty = 0;
  let delta = 0;
  for (let i = 0; i < f.length; i += 3) { qty += f[i + 1]!; delta += f[i + 2]!; }
  const scale = 10n ** BigInt(u.mScale + 4);
  const over = BigInt(qty) * 100n > BigInt(m.qtyLimit)
    || BigInt(Math.abs(delta)) * 100n > BigInt(m.deltaLimit) * scale;
  if (!over) return;
  m.triggerMs = now;
  m.frozenUntilMs = m.frozenPeriod > 0 ? now + m.frozenPeriod : 0;
  m.fills = [];
  S.mmpTriggers++;
}

const limit = (v: number): boolean => Number.isSafeInteger(v) && v > 0 && v <= MMP_LIMIT_MAX;

/** OptionsSetMmp and OptionsResetMmp (`reset`); see the module comment. */
export function applyMmp(ctx: ExchangeContext, c: Command, reset: boolean): ResultCode {
  const S = ctx.options;
  const ui = c.sub;
  if ((ui | 0) !== ui || ui < 0 || ui >= S.underlyings.length || !Number.isSafeInteger(c.uid) || c.uid <= 0) return ResultCode.InvalidParam;
  const m = S.mmpOf(c.uid, ui);
  if (reset) {
    if (m === undefined) return ResultCode.InvalidParam;
    m.triggerMs = 0;
    m.frozenUntilMs = 0;
    m.fills = [];
    return ResultCode.Ok;
  }
  const window = c.price;
  const frozen = c.amount;
  if (!Number.isSafeInteger(window) || window < 0 || window > MMP_WINDOW_MAX || !Number.isSafeInteger(frozen) || frozen < 0
    || frozen > MMP_FROZEN_MAX || !limit(c.iceberg) || !limit(c.toUid)) return ResultCode.InvalidParam;
  const next: MmpState = { window, frozenPeriod: frozen, qtyLimit: c.iceberg, deltaLimit: c.toUid, triggerMs: m?.triggerMs ?? 0,
    frozenUntilMs: m?.frozenUntilMs ?? 0, fills: [] };
  S.setMmp(c.uid, ui, next);
  return ResultCode.Ok;
}
