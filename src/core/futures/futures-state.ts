/**
 * The perpetual-futures state beside the ledger: contracts and their prices, users' futures accounts (position
 * mode, running totals), positions, and the bounded histories Gate's futures routes report (funding rates,
 * insurance balance, position closes, liquidations, auto-deleverages).
 *
 * Money lives in the ledger (futures-funds.ts: margin holds, clearing, the insurance fund); this state keeps
 * what the ledger cannot: sizes, bases, leverages, risk limits, prices, realised figures and history. Both
 * are folded by the same commands, so together they hash, snapshot and replay as one.
 *
 * Identity kept after every command (assertInvariants): per settle currency, the ledger's clearing balance +
 * `unbacked` = Σ position bases (a loss that nobody could pay, not even the insurance fund, is `unbacked`).
 *
 * Costs: histories are bounded arrays (HISTORY_CAP rows each, oldest dropped: O(n) shift, rare); export,
 * import and hashing are O(state) and allocate.
 */
import { invariant } from '../invariant.js';
import type { StateHasher } from '../state-hash.js';
import type { Contract } from './contract.js';
import { DELIVERY_ACCT } from '../ledger/futures-funds.js';
import { PositionStore } from './position-store.js';

/** Rows each history keeps (oldest dropped). */
export const HISTORY_CAP = 10_000;

/** A funding event of a contract: time in seconds, rate in 10^-8. */
export interface FundingRow { readonly t: number; readonly market: number; readonly rate: string }
/** The insurance fund after a change: time in seconds, balance in settle units. */
export interface InsuranceRow { readonly t: number; readonly cur: number; readonly balance: string }
/** A position that became empty (Gate's position_close). Money in settle units, prices as decimal strings. */
export interface CloseRow {
  readonly t: number; readonly uid: number; readonly market: number; readonly slot: number;
  /** 'long' or 'short': the side of the closed position. */
  readonly side: string;
  readonly pnl: string; readonly pnlPnl: string; readonly pnlFund: string; readonly pnlFee: string;
  /** 'close', 'liquidated' or 'adl'. */
  readonly text: string;
  readonly maxSize: number; readonly accumSize: number; readonly firstOpenTime: number;
  readonly entryPrice: string; readonly closePrice: string;
}
/** A liquidation: the user's position taken over at its bankruptcy price. */
export interface LiquidationRow {
  readonly t: number; readonly uid: number; readonly market: number; readonly slot: number; readonly size: number;
  readonly leverage: number; readonly margin: string; readonly entryPrice: string; readonly liqPrice: string;
  readonly markPrice: string; readonly orderId: number; readonly orderPrice: string;
}
/** An auto-deleverage: a user's position closed against the liquidator at its entry price. */
export interface AdlRow {
  readonly t: number; readonly uid: number; readonly market: number; readonly slot: number; readonly orderId: number;
  readonly leverage: number; readonly crossLimit: number; readonly entryPrice: string; readonly fillPrice: string;
  /** Contracts closed (signed as the order: negative closes a long) and the position left after. */
  readonly tradeSize: number; readonly positionSize: number;
}

/**
 * A delivery contract's settlement of one position (Gate's DeliverySettlement): time (the expire time) in seconds, size before it,
 * margin, entry and settlement prices as decimal strings, profit and fee in settle units.
 */
export interface SettlementRow {
  readonly t: number; readonly uid: number; readonly market: number; readonly leverage: number; readonly size: number;
  readonly margin: string; readonly entryPrice: string; readonly settlePrice: string; readonly profit: string; readonly fee: string;
}

/** A delivery contract's state: 0 trading, 1 settled. */
export const DeliveryStatus = { Trading: 0, Settled: 1 } as const;

/** Per margin account (settle currency; + DELIVERY_ACCT for delivery) and user: position mode and Gate's `history` totals. */
export interface FuturesAccountRow {
  dual: boolean;
  dnw: bigint; pnl: bigint; fee: bigint; fund: bigint;
}

/** Plain form of the state for snapshots. */
export interface FuturesStateData {
  readonly prices: readonly (readonly [number, number, string, string, number])[];
  readonly accounts: readonly (readonly [number, number, boolean, string, string, string, string])[];
  readonly positions: readonly (readonly (number | string)[])[];
  readonly unbacked: readonly string[];
  readonly funding: readonly FundingRow[];
  readonly insurance: readonly InsuranceRow[];
  readonly closes: readonly CloseRow[];
  readonly liquidations: readonly LiquidationRow[];
  readonly adl: readonly AdlRow[];
  /** Per contract [status, settle price ticks, index sum of the settlement window, samples]; absent in older snapshots. */
  readonly delivery?: readonly (readonly [number, number, string, number])[];
  readonly settlements?: readonly SettlementRow[];
}

/** Account keys: uid × 2^17 + margin account code (< 2^17). */
const ACCT_SPAN = 131072;

export class FuturesState {
  readonly contracts: readonly Contract[];
  /** Market index of each contract, and the contract of each market (-1: a spot market). */
  readonly marketOf: readonly number[];
  readonly #contractOf: Int32Array;
  /** Ledger currency index of each contract's settle currency. */
  readonly settleCur: readonly number[];
  /**
   * The margin account code of each contract (futures-funds.ts): its settle currency for a perpetual, + DELIVERY_ACCT
   * for a delivery contract. Positions, account rows and margin of a contract live in this account.
   */
  readonly acct: readonly number[];
  /** Delivery contracts: DeliveryStatus, the settlement price (ticks, 0 before), the index sum and sample count of the window. */
  readonly deliveryStatus: Uint8Array;
  readonly settlePrice: Float64Array;
  readonly settleSum: bigint[];
  readonly settleSamples: Int32Array;
  /** Mark and index prices in ticks (0: none yet), per contract. */
  readonly mark: Float64Array;
  readonly index: Float64Array;
  /** The funding rate applied at the next funding time, and the indicative one, per contract (10^-8). */
  readonly fundingRate: bigint[];
  readonly indicativeRate: bigint[];
  /** Next funding time, seconds since the epoch (0 until the first price update sets it). */
  readonly nextFunding: Float64Array;
  readonly positions = new PositionStore();
  readonly #accounts = new Map<number, FuturesAccountRow>();
  /** Per ledger currency: losses nobody could pay (see the module comment). */
  readonly unbacked: bigint[];
  funding: FundingRow[] = [];
  insurance: InsuranceRow[] = [];
  closes: CloseRow[] = [];
  liquidations: LiquidationRow[] = [];
  adl: AdlRow[] = [];
  settlements: SettlementRow[] = [];

  /** @allocates */
  constructor(contracts: readonly Contract[], marketOf: readonly number[], settleCur: readonly number[], markets: number,
    currencies: number) {
    this.contracts = contracts;
    this.marketOf = marketOf;
    this.settleCur = settleCur;
    this.acct = contracts.map((c, i) => settleCur[i]! + (c.expireTime > 0 ? DELIVERY_ACCT : 0));
    this.#contractOf = new Int32Array(markets).fill(-1);
    marketOf.forEach((m, i) => { this.#contractOf[m] = i; });
    const n = contracts.length;
    this.mark = new Float64Array(n);
    this.index = new Float64Array(n);
    this.nextFunding = new Float64Array(n);
    this.fundingRate = Array.from({ length: n }, () => 0n);
    this.indicativeRate = Array.from({ length: n }, () => 0n);
    this.unbacked = Array.from({ length: currencies }, () => 0n);
    this.deliveryStatus = new Uint8Array(n);
    this.settlePrice = new Float64Array(n);
    this.settleSum = Array.from({ length: n }, () => 0n);
    this.settleSamples = new Int32Array(n);
  }

  /** The contract index of market `m`, or -1 (a spot market or out of range). */
  contractOf(m: number): number {
    return (m | 0) === m && m >= 0 && m < this.#contractOf.length ? this.#contractOf[m]! : -1;
  }

  /** Index of the contract named `name` settled in `settle` (lower case), or -1. */
  contractIndex(settle: string, name: string): number {
    return this.contracts.findIndex((c) => c.settle === settle && c.name === name);
  }

  /** (uid, margin account `cur`: settleCur or acct)'s account row, created on first use. @allocates on creation */
  account(uid: number, cur: number): FuturesAccountRow {
    const key = uid * ACCT_SPAN + cur;
    let a = this.#accounts.get(key);
    if (a === undefined) {
      a = { dual: false, dnw: 0n, pnl: 0n, fee: 0n, fund: 0n };
      this.#accounts.set(key, a);
    }
    return a;
  }

  /** (uid, cur)'s account row, or undefined when never touched. */
  findAccount(uid: number, cur: number): FuturesAccountRow | undefined {
    return this.#accounts.get(uid * ACCT_SPAN + cur);
  }

  /** True when `uid` trades settle currency `cur` in dual (hedge) mode. */
  isDual(uid: number, cur: number): boolean {
    return this.#accounts.get(uid * ACCT_SPAN + cur)?.dual === true;
  }

  /** Appends to a bounded history. */
  static push<T>(list: T[], row: T): void {
    list.push(row);
    if (list.length > HISTORY_CAP) list.shift();
  }

  /** Mixes the state into `h` (positions in row order; accounts by key). @allocates */
  hashInto(h: StateHasher): void {
    const P = this.positions;
    h.add(this.contracts.length).add(P.count);
    for (let i = 0; i < this.contracts.length; i++) {
      h.add(this.mark[i]!).add(this.index[i]!).add(this.nextFunding[i]!)
        .addString(this.fundingRate[i]!.toString()).addString(this.indicativeRate[i]!.toString());
    }
    for (let r = 0; r < P.count; r++) {
      h.add(P.uid[r]!).add(P.market[r]!).add(P.slot[r]!).add(P.size[r]!).add(P.leverage[r]!).add(P.crossLimit[r]!)
        .add(P.openTime[r]!).add(P.pending[r]!).add(P.openBuy[r]!).add(P.openSell[r]!).add(P.maxSize[r]!).add(P.accumSize[r]!)
        .addString(P.basis[r]!.toString()).addString(P.riskLimit[r]!.toString()).addString(P.pnlPnl[r]!.toString())
        .addString(P.pnlFee[r]!.toString()).addString(P.pnlFund[r]!.toString()).addString(P.historyPnl[r]!.toString());
    }
    const keys = [...this.#accounts.keys()].sort((a, b) => a - b);
    h.add(keys.length);
    for (const k of keys) {
      const a = this.#accounts.get(k)!;
      h.add(k).add(a.dual ? 1 : 0).addString(`${a.dnw}:${a.pnl}:${a.fee}:${a.fund}`);
    }
    for (const u of this.unbacked) h.addString(u.toString());
    h.add(this.funding.length).add(this.insurance.length).add(this.closes.length).add(this.liquidations.length).add(this.adl.length);
    for (let i = 0; i < this.contracts.length; i++) {
      if (this.contracts[i]!.expireTime === 0) continue;
      h.add(this.deliveryStatus[i]!).add(this.settlePrice[i]!).add(this.settleSamples[i]!).addString(this.settleSum[i]!.toString());
    }
    h.add(this.settlements.length);
  }

  /** Copies the state into plain rows (snapshots). @allocates */
  exportData(): FuturesStateData {
    const P = this.positions;
    const positions: (number | string)[][] = [];
    for (let r = 0; r < P.count; r++) {
      positions.push([P.uid[r]!, P.market[r]!, P.slot[r]!, P.size[r]!, P.leverage[r]!, P.crossLimit[r]!, P.openTime[r]!,
        P.updateTime[r]!, P.updateId[r]!, P.pending[r]!, P.maxSize[r]!, P.accumSize[r]!, P.basis[r]!.toString(),
        P.riskLimit[r]!.toString(), P.pnlPnl[r]!.toString(), P.pnlFee[r]!.toString(), P.pnlFund[r]!.toString(),
        P.historyPnl[r]!.toString(), P.lastClosePnl[r]!.toString(), P.openBuy[r]!, P.openSell[r]!]);
    }
    return {
      prices: this.contracts.map((_, i) => [this.mark[i]!, this.index[i]!, this.fundingRate[i]!.toString(),
        this.indicativeRate[i]!.toString(), this.nextFunding[i]!] as const),
      accounts: [...this.#accounts.entries()].map(([k, a]) => [Math.floor(k / ACCT_SPAN), k % ACCT_SPAN, a.dual, a.dnw.toString(),
        a.pnl.toString(), a.fee.toString(), a.fund.toString()] as const),
      positions,
      unbacked: this.unbacked.map(String),
      funding: [...this.funding], insurance: [...this.insurance], closes: [...this.closes],
      liquidations: [...this.liquidations], adl: [...this.adl],
      delivery: this.contracts.map((_, i) => [this.deliveryStatus[i]!, this.settlePrice[i]!, this.settleSum[i]!.toString(),
        this.settleSamples[i]!] as const),
      settlements: [...this.settlements],
    };
  }

  /** Restores exported rows into this fresh state (same definition). Throws InvariantError when they do not fit. @allocates */
  importData(d: FuturesStateData): void {
    invariant(this.positions.count === 0, 'futures: import needs a fresh state');
    invariant(d.prices.length === this.contracts.length, 'futures: contract count differs from the definition');
    d.prices.forEach(([mark, index, rate, indicative, next], i) => {
      this.mark[i] = mark;
      this.index[i] = index;
      this.fundingRate[i] = BigInt(rate);
      this.indicativeRate[i] = BigInt(indicative);
      this.nextFunding[i] = next;
    });
    for (const [uid, cur, dual, dnw, pnl, fee, fund] of d.accounts) {
      const a = this.account(uid, cur);
      a.dual = dual;
      a.dnw = BigInt(dnw); a.pnl = BigInt(pnl); a.fee = BigInt(fee); a.fund = BigInt(fund);
    }
    const P = this.positions;
    for (const row of d.positions) {
      const n = (k: number): number => row[k] as number;
      const b = (k: number): bigint => BigInt(row[k] as string);
      const r = P.ensure(n(0), n(1), n(2), n(4), b(13), n(7));
      invariant(r === P.count - 1, 'futures: duplicate position row');
      P.size[r] = n(3); P.crossLimit[r] = n(5); P.openTime[r] = n(6); P.updateId[r] = n(8); P.pending[r] = n(9);
      P.maxSize[r] = n(10); P.accumSize[r] = n(11); P.basis[r] = b(12); P.pnlPnl[r] = b(14); P.pnlFee[r] = b(15);
      P.pnlFund[r] = b(16); P.historyPnl[r] = b(17); P.lastClosePnl[r] = b(18);
      P.openBuy[r] = n(19); P.openSell[r] = n(20);
    }
    d.unbacked.forEach((u, i) => { this.unbacked[i] = BigInt(u); });
    this.funding = [...d.funding];
    this.insurance = [...d.insurance];
    this.closes = [...d.closes];
    this.liquidations = [...d.liquidations];
    this.adl = [...d.adl];
    d.delivery?.forEach(([status, price, sum, samples], i) => {
      this.deliveryStatus[i] = status;
      this.settlePrice[i] = price;
      this.settleSum[i] = BigInt(sum);
      this.settleSamples[i] = samples;
    });
    this.settlements = [...(d.settlements ?? [])];
  }
}
