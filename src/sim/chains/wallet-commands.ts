/**
 * How the chain simulation changes its records (engine/records.ts's pattern): a command carries the new
 * records, and the store takes them in only in that command's `done`, when Ok. Changes to one entity run one
 * at a time (`serial`): each is built from the record the previous one left, never from a stale base, also on
 * the threaded runner where a `done` comes later than its submit.
 *
 * Costs: one JSON.stringify per change; a queue entry per waiting change of a busy entity.
 */
import { Command, CommandType } from '../../core/command.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway, GroupEntry } from '../../engine/gateway.js';
import { type RecordPutsMap, withRecords } from '../../engine/records.js';
import type { WalletStore } from './wallet-store.js';

/** Codes that say nothing about the command itself (the engine was busy or stopped): a later try may pass. */
export const transient = (code: ResultCode): boolean =>
  code === ResultCode.Busy || code === ResultCode.EngineStopped || code === ResultCode.JournalFailed;

/**
 * Runs `answer` (a change's reply), then `release` (the next change of the entity may start), even if the
 * answer throws: replies leave in the order the changes were made, and an entity never stays locked.
 */
export function answerThenRelease(answer: () => void, release: () => void): void {
  try {
    answer();
  } finally {
    release();
  }
}

export class WalletCommands {
  readonly gateway: ExchangeGateway;
  readonly store: WalletStore;
  readonly #cmd = new Command();
  /** Entity key → changes waiting behind the one running (the key is present while one runs). */
  readonly #queues = new Map<string, (() => void)[]>();

  constructor(gateway: ExchangeGateway, store: WalletStore) {
    this.gateway = gateway;
    this.store = store;
  }

  /** True while a change of `key` runs or waits. */
  busy(key: string): boolean {
    return this.#queues.has(key);
  }

  /**
   * Runs `task` once every earlier task of `key` called its `release`; tasks of one key run one at a time,
   * in call order. A task must call `release` exactly once (after its command's `done`).
   */
  serial(key: string, task: (release: () => void) => void): void {
    const queue = this.#queues.get(key);
    if (queue !== undefined) {
      queue.push(() => task(() => this.#next(key)));
      return;
    }
    this.#queues.set(key, []);
    task(() => this.#next(key));
  }

  #next(key: string): void {
    const queue = this.#queues.get(key)!;
    const task = queue.shift();
    if (task === undefined) this.#queues.delete(key);
    else task();
  }

  /** Submits `c` carrying `puts`; on Ok the store applies them before `done` runs. */
  submit(c: Command, puts: RecordPutsMap, done: (code: ResultCode) => void): void {
    withRecords(c, puts);
    this.gateway.submit(c, (code) => {
      if (code === ResultCode.Ok) this.store.applyAll(puts);
      done(code);
    });
  }

  /** Submits commands, each with its records, as one journal group (all recovered after a crash, or none). */
  submitGroup(entries: readonly (readonly [Command, RecordPutsMap, (code: ResultCode) => void])[]): void {
    const group: GroupEntry[] = entries.map(([c, puts, done]) => [withRecords(c, puts), (code: ResultCode) => {
      if (code === ResultCode.Ok) this.store.applyAll(puts);
      done(code);
    }]);
    this.gateway.submitGroup(group);
  }

  /** A PutRecords command (the shared one: the gateway copies it on submit). */
  records(): Command {
    const c = this.#cmd.clear();
    c.type = CommandType.PutRecords;
    return c;
  }

  /**
   * A funds command of `type` for `uid` in `currency` of `units` (text when the currency is wide), in `into`
   * (default the shared command; a group needs one object per command).
   */
  fill(type: number, uid: number, currency: string, units: bigint, into: Command = this.#cmd): Command {
    const ex = this.gateway.exchange;
    const c = into.clear();
    c.type = type; c.uid = uid; c.currency = ex.currencyIndex(currency);
    if (ex.ledger.isWide(currency)) c.text = units === 0n ? '' : units.toString();
    else c.amount = Number(units);
    return c;
  }
}
