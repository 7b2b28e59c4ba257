/**
 * The futures switches of the simulator's control plane (not Gate's API; token or loopback like every /sim/
 * route, see sim-access). A contract is named by `contract` (and `settle`, usdt or btc, when two settle
 * currencies share a name); prices and rates are decimal strings.
 *   POST /sim/futures/prices        {contract, mark?, index?}    → the contract's prices (mark on mark_price_round;
 *                                                                  the indicative funding rate kept); with the price
 *                                                                  clock running they are overrides that hold until
 *                                                                  cleared with null
 *   POST /sim/futures/funding_rate  {contract, rate: "0.0001" | null} → sets (within ±funding_rate_limit) or clears
 *                                                                  the rate funding applies instead of the computed one
 *   POST /sim/futures/funding       {contract}                  → applies funding now at the override or the
 *                                                                  indicative rate: only once the contract's funding
 *                                                                  time has come (move the simulated clock first)
 *   POST /sim/futures/liquidate     {contract?}                 → one liquidator pass: every position at or below its
 *                                                                  maintenance margin is taken over, closed, and ADL'd
 *   GET  /sim/futures/insurance                                 → {USDT: "…", BTC: "…"}: each settle currency's fund
 *   GET  /sim/futures/positions     ?contract=                  → per contract: prices, rates, open interest, the
 *                                                                  positions and which of them are liquidatable
 * Bad input answers its label and changes nothing. What runs the switches is a FuturesControl
 * (sim-futures-control.ts): the futures services when they run, the core commands otherwise.
 */
import { settleOfScope } from '../../core/futures/contract.js';
import { isLiquidatable } from '../../core/futures/futures-liquidation.js';
import { formatSigned, parseSignedUnits, RATE_SCALE } from '../../core/futures/futures-math.js';
import { ResultCode } from '../../core/result-code.js';
import { parseUnits } from '../../core/units.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject, queryParam } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Handler, Router } from '../router.js';
import { futuresServicesOf } from '../../engine/futures/futures-services.js';
import { type FuturesControl, futuresControl } from './sim-futures-control.js';

const SIM = { kind: 'sim' } as const;

export function registerSimFuturesRoutes(router: Router, deps: ApiDeps, control: FuturesControl = futuresControl(deps.gateway, () => futuresServicesOf(deps.gateway.exchange))): void {
  const ex = () => deps.gateway.exchange;
  const S = () => ex().futures;
  /** Replies 500 when a switch's promise fails (an engine stop, a bug). */
  const guard = (p: Promise<void>, reply: Reply, what: string): void => {
    p.catch((e: unknown) => {
      console.error(`ringmatch: ${what} failed:`, e);
      reply.json(500, { label: 'SERVER_ERROR', message: 'Internal server error' });
    });
  };

  /** The contract a body or query names (with optional settle), or answers the rejection and returns -1. */
  const contractOf = (name: unknown, settle: unknown, reply: Reply): number => {
    if (name === undefined || name === null || name === '') {
      reply.error(ResultCode.MissingParam, 'contract is required');
      return -1;
    }
    const found = typeof name === 'string' ? S().contracts.map((k, i) => [k, i] as const)
      .filter(([k]) => k.name === name && (settle === undefined || settle === null || settle === '' || settleOfScope(k.settle) === settle)) : [];
    if (found.length === 1) return found[0]![1];
    reply.error(found.length === 0 ? ResultCode.ContractNotFound : ResultCode.MissingParam,
      found.length === 0 ? 'no such contract' : 'two settle currencies have this contract: give settle');
    return -1;
  };

  const prices = (ci: number): Record<string, string> => {
    const k = S().contracts[ci]!;
    const fmt = (t: number): string => (t > 0 ? formatSigned(BigInt(t), k.priceScale) : '0');
    return { contract: k.name, settle: settleOfScope(k.settle), mark_price: fmt(S().mark[ci]!), index_price: fmt(S().index[ci]!) };
  };
  const rateText = (r: bigint | undefined): string | null => (r === undefined ? null : formatSigned(r, RATE_SCALE));

  const post = (path: string, handler: Handler): void => { router.add({ method: 'POST', pattern: `/sim/futures/${path}`, access: SIM, limit: 'public', handler }); };
  const get = (path: string, handler: Handler): void => { router.add({ method: 'GET', pattern: `/sim/futures/${path}`, access: SIM, limit: 'public', handler }); };

  post('prices', (req, reply) => {
    const body = bodyObject(req) ?? {};
    const ci = contractOf(body.contract, body.settle, reply);
    if (ci < 0) return;
    const k = S().contracts[ci]!;
    const absent = (v: unknown): boolean => v === undefined || v === null;
    if (!('mark' in body) && !('index' in body)) return reply.error(ResultCode.MissingParam, 'give mark, index or both (null clears an override)');
    const ticks = (v: unknown): number => (absent(v) ? 0 : parseUnits(v, k.priceScale));
    const mark = ticks(body.mark);
    const index = ticks(body.index);
    if (mark < 0 || index < 0 || (!absent(body.mark) && mark === 0) || (!absent(body.index) && index === 0)) {
      return reply.error(mark < 0 ? mark : index < 0 ? index : ResultCode.InvalidParam, `mark and index are positive decimal strings with at most ${k.priceScale} decimals`);
    }
    if (mark % k.markTick !== 0) return reply.error(ResultCode.InvalidParam, `mark must be a multiple of mark_price_round ${k.spec.mark_price_round ?? k.spec.order_price_round}`);
    const given = (v: unknown, t: number): number | null | undefined => (v === undefined ? undefined : v === null ? null : t);
    guard(control.setPrices(ci, given(body.mark, mark), given(body.index, index)).then((code) => {
      if (code !== ResultCode.Ok) return reply.error(code);
      reply.json(200, prices(ci));
    }), reply, 'POST /sim/futures/prices');
  });

  post('funding_rate', (req, reply) => {
    const body = bodyObject(req) ?? {};
    const ci = contractOf(body.contract, body.settle, reply);
    if (ci < 0) return;
    if (!('rate' in body)) return reply.error(ResultCode.MissingParam, 'rate is required: a decimal string, or null to clear');
    const k = S().contracts[ci]!;
    let rate: bigint | undefined;
    if (body.rate !== null) {
      rate = typeof body.rate === 'string' ? parseSignedUnits(body.rate, RATE_SCALE) : undefined;
      if (rate === undefined) return reply.error(ResultCode.InvalidParam, `rate: a signed decimal string with at most ${RATE_SCALE} decimals`);
      if (rate > k.fundingCap || rate < -k.fundingCap) return reply.error(ResultCode.InvalidParam, `rate must be within ±funding_rate_limit (${formatSigned(k.fundingCap, RATE_SCALE)})`);
    }
    guard(control.setFundingOverride(ci, rate).then(() => {
      reply.json(200, { contract: k.name, settle: settleOfScope(k.settle), funding_rate_override: rateText(control.fundingOverride(ci)) });
    }), reply, 'POST /sim/futures/funding_rate');
  });

  post('funding', (req, reply) => {
    const body = bodyObject(req) ?? {};
    const ci = contractOf(body.contract, body.settle, reply);
    if (ci < 0) return;
    guard(control.applyFunding(ci).then(({ code, rate }) => {
      if (code !== ResultCode.Ok) {
        return reply.error(code, code === ResultCode.NothingDue ? 'funding is not due yet (funding_next_apply), or the contract has no mark price' : undefined);
      }
      const k = S().contracts[ci]!;
      reply.json(200, { contract: k.name, settle: settleOfScope(k.settle), rate: formatSigned(rate, RATE_SCALE), funding_next_apply: S().nextFunding[ci]! });
    }), reply, 'POST /sim/futures/funding');
  });

  post('liquidate', (req, reply) => {
    const body = bodyObject(req) ?? {};
    const all = body.contract === undefined || body.contract === null;
    const ci = all ? -1 : contractOf(body.contract, body.settle, reply);
    if (!all && ci < 0) return;
    guard(control.liquidate(ci).then((pass) => { reply.json(200, pass); }), reply, 'POST /sim/futures/liquidate');
  });

  get('insurance', (_req, reply) => {
    const out: Record<string, string> = {};
    const L = ex().ledger;
    for (const cur of new Set(S().settleCur)) {
      const code = ex().currencies[cur]!;
      out[code] = formatSigned(L.futures.insuranceFund(cur), ex().definition.currencies[cur]!.scale);
    }
    reply.json(200, out);
  });

  get('positions', (req, reply) => {
    const name = queryParam(req, 'contract');
    const only = name === undefined || name === '' ? -1 : contractOf(name, queryParam(req, 'settle'), reply);
    if (name !== undefined && name !== '' && only < 0) return;
    const F = S();
    const P = F.positions;
    const out = F.contracts.map((_, ci) => ci).filter((ci) => only < 0 || ci === only).map((ci) => {
      const rows = P.openRows(F.marketOf[ci]);
      let long = 0;
      let short = 0;
      for (const r of rows) if (P.size[r]! > 0) long += P.size[r]!; else short -= P.size[r]!;
      return {
        ...prices(ci), funding_rate: rateText(F.indicativeRate[ci]), funding_rate_override: rateText(control.fundingOverride(ci)),
        funding_next_apply: F.nextFunding[ci]!, long_size: long, short_size: short,
        positions: rows.map((r) => ({ uid: P.uid[r]!, slot: P.slot[r]!, size: P.size[r]!, leverage: P.leverage[r]!, liquidatable: isLiquidatable(ex(), ci, r) })),
      };
    });
    reply.json(200, out);
  });
}
