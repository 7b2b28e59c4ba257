// The chain simulation against a gateway that answers later (as the threaded runner may): changes to one record
// run one at a time, each built from the record the previous one left, so two ticks never credit a deposit twice,
// a cancel racing a control-plane FAIL ends the withdrawal once, and two switch changes both hold. A simulation
// built on the same exchange (what a restart does) holds exactly the live records and continues their ids.
import { beforeEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { ResultCode } from '../../src/core/result-code.js';
import { type ExchangeGateway, type GroupEntry, InlineGateway } from '../../src/engine/gateway.js';
import { resolveChains } from '../../src/sim/chains/chain-spec.js';
import { WalletSim } from '../../src/sim/chains/wallet-sim.js';
import { definitionFromConfig } from '../../src/sim/sim-config.js';
import { TEST_CONFIG } from '../api/http-helpers.js';
import { WALLET_CONFIG } from '../api/wallet-helpers.js';

const T0 = 1_700_000_000_000_000;
let clock: SimClock;
let inner: InlineGateway;
let queue: (() => void)[];
let late: ExchangeGateway;

/** Runs every command submitted so far (and those their answers submit). */
function flush(): void {
  for (let f = queue.shift(); f !== undefined; f = queue.shift()) f();
}

const chains = () => resolveChains(inner.exchange.definition.currencies, WALLET_CONFIG.chains);
const spot = (uid: number, cur: string) => inner.exchange.ledger.balanceText(uid, AccountKind.Spot, 0, cur)!;
/** Units of a USDT amount, whatever USDT's scale (the config derives it: src/core/exchange/currency-scales.ts). */
const usdt = (text: string): bigint => BigInt(inner.exchange.ledger.parse('USDT', text));

beforeEach(() => {
  clock = new SimClock(T0);
  const { definition, balances } = definitionFromConfig(TEST_CONFIG);
  inner = new InlineGateway(definition, clock);
  for (const b of balances) {
    const c = new Command();
    c.type = CommandType.Credit; c.uid = b.uid; c.kind = AccountKind.Spot; c.currency = inner.exchange.currencyIndex(b.currency);
    const units = inner.exchange.ledger.parse(b.currency, b.amount);
    if (typeof units === 'bigint') c.text = units.toString(); else c.amount = units;   // wide currencies go as text
    inner.submit(c, () => undefined);
  }
  queue = [];
  late = {
    exchange: inner.exchange, clock,
    submit: (cmd: Command, done) => {
      const c = new Command().copyFrom(cmd);
      queue.push(() => inner.submit(c, done));
    },
    submitGroup: (group: readonly GroupEntry[]) => {
      const g = group.map(([c, done]): GroupEntry => [new Command().copyFrom(c), done]);
      queue.push(() => inner.submitGroup(g));
    },
  } as Partial<ExchangeGateway> as ExchangeGateway;
});

describe('WalletSim with late answers', () => {
  it('credits a deposit once however many ticks are waiting', () => {
    const sim = new WalletSim(late, clock, chains());
    const eth = sim.chain('USDT', 'ETH')!;
    let id = 0;
    sim.deposit(10002, eth, usdt('1'), (code, d) => { expect(code).toBe(ResultCode.Ok); id = d!.id; });
    flush();
    const before = spot(10002, 'USDT').available;
    clock.advanceBy(10_000_000);
    let ticked = 0;
    for (let i = 0; i < 3; i++) sim.tick(() => ticked++);
    flush();
    expect(ticked).toBe(3);
    expect(sim.store.deposit(id)).toMatchObject({ status: 'DONE', credited: true });
    expect(Number(spot(10002, 'USDT').available) - Number(before)).toBe(1);
  });

  it('ends a withdrawal once when the owner\'s cancel races the control plane and a tick', () => {
    const sim = new WalletSim(late, clock, chains());
    const spec = sim.chain('USDT', 'ETH')!;
    let id = 0;
    sim.withdraw(10001, { currency: 'USDT', spec, units: usdt('100'), fee: usdt('1.01'), address: '0xabc', memo: '',
      withdrawOrderId: '', assetClass: '' }, (code, w) => { expect(code).toBe(ResultCode.Ok); id = w!.id; });
    flush();
    expect(spot(10001, 'USDT').locked).toBe('100');
    const answers: [string, ResultCode, string | undefined][] = [];
    sim.cancel(10001, id, (code, w) => answers.push(['cancel', code, w?.status]));
    sim.setWithdrawalStatus(id, 'FAIL', '', (code, w) => answers.push(['fail', code, w?.status]));
    sim.tick();
    flush();
    expect(answers).toEqual([['cancel', ResultCode.Ok, 'CANCEL'], ['fail', ResultCode.InvalidWithdrawCancelStatus, 'CANCEL']]);
    expect(spot(10001, 'USDT')).toMatchObject({ available: '100000', locked: '0' });
  });

  it('keeps both of two switch changes made before either was answered', () => {
    const sim = new WalletSim(late, clock, chains());
    const spec = sim.chain('USDT', 'TON')!;
    const seen: unknown[] = [];
    sim.setChainSwitches(spec, { deposit_enabled: false }, (code, s) => seen.push([code, s]));
    sim.setChainSwitches(spec, { withdraw_hold: 'MANUAL' }, (code, s) => seen.push([code, s]));
    flush();
    expect(spec).toMatchObject({ depositEnabled: false, withdrawHold: 'MANUAL', withdrawEnabled: true, depositHold: '' });
    expect(seen[1]).toEqual([ResultCode.Ok, { deposit_enabled: false, withdraw_enabled: true, deposit_hold: '', withdraw_hold: 'MANUAL' }]);
  });
});

describe('WalletSim rebuilt from the records', () => {
  it('holds what the live one holds and continues its ids', () => {
    const sim = new WalletSim(late, clock, chains());
    const eth = sim.chain('USDT', 'ETH')!;
    const ton = sim.chain('USDT', 'TON')!;
    const ok = (code: ResultCode): void => { expect(code).toBe(ResultCode.Ok); };
    sim.depositAddresses(10002, [eth, ton], ok);
    sim.deposit(10002, eth, usdt('50'), ok);
    sim.setManualPushReceiver(10002, true, ok);
    sim.addSavedAddress({ uid: 10001, currency: 'USDT', chain: 'TON', address: 'EQs', name: 'n', tag: '1', verified: '1' }, ok);
    sim.setChainSwitches(ton, { withdraw_hold: 'REVIEW' }, ok);
    flush();
    sim.withdraw(10001, { currency: 'USDT', spec: ton, units: usdt('20'), fee: usdt('0.5'), address: 'EQx', memo: '1',
      withdrawOrderId: 'a', assetClass: '' }, ok);
    sim.push(10001, 10002, 'USDT', usdt('3'), ok);
    const bob = sim.addresses.addressOf(10002, ton);
    sim.withdraw(10001, { currency: 'USDT', spec: ton, units: usdt('1'), fee: 0n, address: bob.address, memo: bob.memo,
      withdrawOrderId: '', assetClass: '' }, ok);
    flush();
    clock.advanceBy(4_000_000);
    sim.tick();
    flush();

    const again = new WalletSim(late, clock, chains());
    for (const k of ['deposits', 'withdrawals', 'pushes', 'saved'] as const) expect(again[k]).toEqual(sim[k]);
    expect([...again.manualPushReceivers]).toEqual([10002]);
    expect(again.chain('USDT', 'TON')!.withdrawHold).toBe('REVIEW');
    expect(again.addresses.ownerOf(ton, bob.address, bob.memo)).toBe(10002);
    expect(again.deposits.map((d) => d.status)).toEqual(['DEP_CREDITED', 'DONE']);
    expect(again.withdrawals.map((w) => [w.status, w.internal])).toEqual([['REVIEW', false], ['DONE', true]]);
    // Ids go on after the last one used, the PENDING push's hold (a withdrawal number) included.
    expect(again.pushes[0]).toMatchObject({ status: 'PENDING', holdId: 2 });
    expect([again.store.allocateDeposit(), again.store.allocateWithdrawal(), again.store.allocatePush(), again.store.allocateSaved()])
      .toEqual([3, 4, 2, 2]);
  });
});
