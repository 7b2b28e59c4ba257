/**
 * The simulator's control plane (not part of Gate's API), under `/sim` (token or loopback, see sim-access):
 *   POST /sim/users      {uid?, balances?: {spot: {CUR: "amt"}}, perms?}  → {uid, key, secret}
 *   POST /sim/deposits   {uid, currency, amount, chain?}                  → a deposit on the chain simulation
 *                                                                          (sim/chains; credits spot as it confirms)
 *   POST /sim/clock      {advance_ms} | {set_ms}                          → {now_ms} (simulated clock only; journaled:
 *                                                                          a restart resumes at the moved time)
 *   GET  /sim/state_hash                                                  → {state_hash, seq}: the hash at a quiet point and the
 *                                                                          last command it covers (503 once the engine stopped)
 *   GET  /sim/health                                                      → 200 {status: "ok", …} or 503 {status:
 *                                                                          "stopped", label, reason, stopped_at}
 * Every request is validated completely before anything changes. A user added here is one journal group: an
 * AddUser command carrying its account and key records (auth/identity-records.ts), then its Credits, so a
 * restart brings back the user, its key and its balances, or none of them.
 */
import { randomBytes } from 'node:crypto';
import { Command, CommandType } from '../../core/command.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import { isPermGroup, permsFrom, type PermsSpec } from '../auth/key-store.js';
import { accountKey, keyKey, type KeyRecordValue, permsToRecord } from '../auth/identity-records.js';
import { addUserCommand } from '../../engine/gateway.js';
import { withRecords } from '../../engine/records.js';
import { applyAccount } from '../sub-accounts/identity.js';
import { gateError } from '../../gate/error-catalogue.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject } from '../http/api-request.js';
import type { Router } from '../router.js';
import { parseUnitsOf, renderDeposit } from './wallet-shapes.js';
import { putRecords } from '../../engine/records.js';
import { restoreSimClock, simClockRecord } from '../sim-clock-record.js';

const SIM = { kind: 'sim' } as const;

type Credit = { currency: number; units: number | bigint };

export function registerSimRoutes(router: Router, deps: ApiDeps): void {
  const { gateway } = deps;

  /**
   * Parses {CUR: "amount"} into credits, or a rejection code and a message naming the currency and what is wrong.
   * A zero amount is valid and credits nothing (as in the config file).
   */
  const parseCredits = (spot: unknown): Credit[] | { code: ResultCode; message: string } => {
    if (typeof spot !== 'object' || spot === null || Array.isArray(spot)) return { code: ResultCode.InvalidParam, message: 'balances.spot must be {CUR: "amount"}' };
    const out: Credit[] = [];
    for (const [code, amount] of Object.entries(spot)) {
      const currency = gateway.exchange.currencyIndex(code);
      if (currency < 0) return { code: ResultCode.CurrencyNotFound, message: `balances.spot.${code}: unknown currency` };
      if (typeof amount === 'string' && /^0+(\.0+)?$/.test(amount)) continue;
      const units = typeof amount === 'string' ? gateway.exchange.ledger.parse(code, amount) : ResultCode.InvalidParam;
      if (typeof units === 'number' && units < 0) {
        const scale = gateway.exchange.definition.currencies[currency]!.scale;
        const why = units === ResultCode.InvalidPrecision ? `has more decimals than ${code} takes (${scale})`
          : units === ResultCode.AmountTooMuch ? `is above the maximum of ${code}`
            : typeof amount === 'string' && amount.startsWith('-') ? 'is negative' : 'is not a decimal amount such as "100.5"';
        return { code: units as ResultCode, message: `balances.spot.${code}: ${JSON.stringify(amount)} ${why}` };
      }
      out.push({ currency, units });
    }
    return out;
  };

  /** The Credit command of an opening balance (a fresh object: it goes into a group). @allocates */
  const credit = (uid: number, c: Credit): Command => {
    const cmd = new Command();
    cmd.type = CommandType.Credit;
    cmd.uid = uid; cmd.kind = AccountKind.Spot; cmd.currency = c.currency;
    if (typeof c.units === 'bigint') cmd.text = c.units.toString();
    else cmd.amount = c.units;
    return cmd;
  };
  /** Uids of users being created (their AddUser not yet applied), so two requests never pick one. */
  const creating = new Set<number>();
  const taken = (uid: number): boolean =>
    creating.has(uid) || deps.keys.account(uid) !== undefined || gateway.exchange.ledger.mainOf(uid) >= 0;

  router.add({ method: 'POST', pattern: '/sim/users', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const body = bodyObject(req) ?? {};
      let uid = body.uid;
      if (uid === undefined || uid === null) {
        uid = 100_000;
        while (taken(uid as number)) (uid as number)++;
      }
      if (typeof uid !== 'number' || !Number.isInteger(uid) || uid <= 0 || uid >= 2 ** 31) {
        return reply.error(ResultCode.InvalidParam, 'uid must be a positive 31-bit integer');
      }
      if (taken(uid)) return reply.error(ResultCode.UserExists);
      const balances = body.balances ?? {};
      if (typeof balances !== 'object' || balances === null || Array.isArray(balances)) return reply.error(ResultCode.InvalidParam, 'balances must be {spot: {CUR: "amount"}}');
      for (const k of Object.keys(balances)) if (k !== 'spot') return reply.error(ResultCode.AccountNotSupported, `balances.${k}: only spot balances are served`);
      const credits = parseCredits((balances as Record<string, unknown>).spot ?? {});
      if (!Array.isArray(credits)) return reply.error(credits.code, credits.message);
      const perms = body.perms ?? 'all';
      if (perms !== 'all' && (!Array.isArray(perms) || !perms.every((p) => typeof p === 'object' && p !== null
        && isPermGroup((p as Record<string, unknown>).name) && ['undefined', 'boolean'].includes(typeof (p as Record<string, unknown>).read_only)))) {
        return reply.error(ResultCode.InvalidParam, 'perms must be "all" or [{name, read_only}] with Gate\'s group names');
      }
      // One journal group: the user with its account and key records, then its opening balances.
      const newUid = uid;
      const key = randomBytes(16).toString('hex');
      const secret = randomBytes(32).toString('hex');
      const account = { main: 0, locked: false };
      const keyValue: KeyRecordValue = {
        uid: newUid, secret, mode: 1, name: '', perms: permsToRecord(permsFrom(perms as PermsSpec)), ip: [], created_s: 0, updated_s: 0,
        deleted: false, live_at_ms: 0, prev: null,
      };
      creating.add(newUid);
      let first = ResultCode.Ok as ResultCode;
      let pending = credits.length + 1;
      const finish = (): void => {
        if (--pending > 0) return;
        if (first !== ResultCode.Ok) return reply.error(first);
        reply.json(200, { uid: newUid, key, secret });
      };
      gateway.submitGroup([
        [withRecords(addUserCommand(newUid, 0), { [accountKey(newUid)]: account, [keyKey(key)]: keyValue }), (added) => {
          creating.delete(newUid);
          if (added === ResultCode.Ok) {
            applyAccount(deps.keys, newUid, account);
            deps.keyAdmin.apply(key, keyValue);
          } else {
            first = added;
          }
          finish();
        }],
        ...credits.map((c) => [credit(newUid, c), (code: ResultCode) => { if (first === ResultCode.Ok) first = code; finish(); }] as const),
      ]);
    } });

  router.add({ method: 'POST', pattern: '/sim/deposits', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const body = bodyObject(req) ?? {};
      const { uid, currency, amount, chain } = body;
      if (uid === undefined || currency === undefined || amount === undefined) return reply.error(ResultCode.MissingParam, 'uid, currency and amount are required');
      if (typeof uid !== 'number' || gateway.exchange.ledger.mainOf(uid) < 0) return reply.error(ResultCode.UserNotFound);
      if (chain !== undefined && typeof chain !== 'string') return reply.error(ResultCode.InvalidParam, 'chain must be a string');
      if (typeof currency !== 'string') return reply.error(ResultCode.InvalidParam, 'currency must be a string');
      const chains = deps.wallet.chainsOf(currency);
      if (chains === undefined) return reply.error(ResultCode.CurrencyNotFound);
      const spec = chain === undefined ? chains[0]! : chains.find((c) => c.chain === chain);
      if (spec === undefined) return reply.error(ResultCode.InvalidParam, `unknown chain for ${currency}`);
      const units = parseUnitsOf(gateway.exchange, currency, amount);
      if (typeof units === 'number') return reply.error(units);
      // The chain simulation walks it (TRACK → DEP_CREDITED → DONE) and credits spot through a Credit command.
      deps.wallet.deposit(uid, spec, units, (code, d) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { ...renderDeposit(gateway.exchange, d!), uid });
      });
    } });

  if (deps.simClock !== undefined) restoreSimClock(gateway.exchange, deps.simClock);
  router.add({ method: 'POST', pattern: '/sim/clock', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const clock = deps.simClock;
      if (clock === undefined) return reply.error(ResultCode.InvalidParam, 'the simulator runs on the wall clock; start it with "clock": {"type": "sim"}');
      const body = bodyObject(req) ?? {};
      const { advance_ms: advance, set_ms: set } = body;
      const ms = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
      if ((advance === undefined) === (set === undefined)) return reply.error(ResultCode.MissingParam, 'give exactly one of advance_ms and set_ms');
      const now = clock.nowUs();
      const target = advance !== undefined ? (ms(advance) ? now + (advance as number) * 1000 : -1) : (ms(set) ? (set as number) * 1000 : -1);
      if (target < 0 || !Number.isSafeInteger(target)) return reply.error(ResultCode.InvalidParam, 'milliseconds must be a non-negative integer');
      if (target < now) return reply.error(ResultCode.InvalidParam, 'the simulated clock never moves backwards');
      // The clock moves at once (the next request, and the record's own command, see the new time); the reply
      // waits for the record and for what the move made due (trigger expiry, countdown cancels).
      clock.advanceTo(target);
      // Answered once the move is journaled and what it made due is applied: the chain simulation's walks,
      // trigger expiries, countdown cancels (their changes journaled too).
      let refused: ResultCode = ResultCode.Ok;
      const recorded = new Promise<void>((resolve) => putRecords(gateway, simClockRecord(target), (code) => { refused = code; resolve(); }));
      const walked = new Promise<void>((resolve) => deps.wallet.tick(resolve));
      Promise.all([recorded, walked, ...deps.onClockMove.map((f) => f())]).then(() => {
        if (refused !== ResultCode.Ok) return reply.error(refused);
        reply.json(200, { now_ms: Math.floor(target / 1000) });
      }, (e: unknown) => {
        console.error('ringmatch: POST /sim/clock failed:', e);
        reply.json(500, { label: 'SERVER_ERROR', message: 'Internal server error' });
      });
    } });

  router.add({ method: 'GET', pattern: '/sim/health', access: SIM, limit: 'public',
    handler: (_req, reply) => {
      const j = gateway.journal;
      const journal = j === undefined ? null : {
        path: j.path, fsync: j.policy.fsync, appended: j.appended, durable: j.durable, last_seq: j.appendedSeq,
        durable_seq: j.durableSeq, failure: j.failure?.message ?? null,
      };
      const stop = gateway.stopped;
      if (stop === undefined) return reply.json(200, { status: 'ok', journal });
      const e = gateError(stop.code);
      reply.json(503, { status: 'stopped', label: e.label, reason: stop.reason, stopped_at: stop.atMs, journal });
    } });

  router.add({ method: 'GET', pattern: '/sim/state_hash', access: SIM, limit: 'public',
    handler: (_req, reply) => {
      const stop = gateway.stopped;
      if (stop !== undefined) return reply.error(stop.code);
      gateway.stateAt().then(
        (s) => reply.json(200, { state_hash: s.hash, seq: s.seq }),
        () => reply.json(500, { label: 'SERVER_ERROR', message: 'state hash unavailable' }),
      );
    } });
}
