/**
 * The control plane's actions as forms (docs/http.md, "Control plane"): a simulated deposit (POST /sim/deposits),
 * moving the simulated clock (POST /sim/clock) and a perpetual's index (and mark) price (POST /sim/futures/prices).
 * Each shows the server's answer, or its error label and message.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeError, rest, sim } from './api';
import { type MarketRef, noteEngineTime } from './markets';

type Outcome = { ok: boolean; text: string } | undefined;

function Result({ outcome, id }: { outcome: Outcome; id: string }) {
  if (outcome === undefined) return null;
  return <p class={outcome.ok ? 'ok' : 'error'} data-testid={id} role="status">{outcome.text}</p>;
}

/** Runs `action`, turning its answer (or refusal) into the form's outcome; `done` after a success. */
function useAction(done: () => void): [Outcome, boolean, (action: () => Promise<string>) => void] {
  const [outcome, setOutcome] = useState<Outcome>(undefined);
  const [busy, setBusy] = useState(false);
  const run = (action: () => Promise<string>): void => {
    setBusy(true);
    action().then((text) => { setOutcome({ ok: true, text }); done(); }, (e: unknown) => setOutcome({ ok: false, text: describeError(e) }))
      .finally(() => setBusy(false));
  };
  return [outcome, busy, run];
}

function DepositForm({ uid, done }: { uid: number; done: () => void }) {
  const [currencies, setCurrencies] = useState<string[]>([]);
  const [currency, setCurrency] = useState('USDT');
  const [chains, setChains] = useState<string[]>([]);
  const [chain, setChain] = useState('');
  const [amount, setAmount] = useState('');
  const [who, setWho] = useState(String(uid));
  const [outcome, busy, run] = useAction(done);
  useEffect(() => setWho(String(uid)), [uid]);
  useEffect(() => {
    rest<{ currency: string }[]>('/spot/currencies').then((l) => {
      const codes = l.map((c) => c.currency);
      setCurrencies(codes);
      if (!codes.includes(currency) && codes[0] !== undefined) setCurrency(codes[0]);
    }, () => undefined);
  }, []);
  useEffect(() => {
    setChain('');
    rest<{ chain: string }[]>(`/wallet/currency_chains?currency=${encodeURIComponent(currency)}`).then((l) => setChains(l.map((c) => c.chain)), () => setChains([]));
  }, [currency]);
  const submit = (e: Event): void => {
    e.preventDefault();
    run(async () => {
      const d = await sim<{ id: string; status: string; amount: string; currency: string; chain: string; uid: number }>('POST', '/sim/deposits',
        { uid: Number(who), currency, amount, ...(chain === '' ? {} : { chain }) });
      return `deposit ${d.id}: ${d.amount} ${d.currency} to ${d.uid} on ${d.chain}, ${d.status}`;
    });
  };
  return (
    <form class="control" onSubmit={submit} data-testid="deposit-form">
      <h3>Deposit</h3>
      <label>uid <input name="uid" inputMode="numeric" value={who} onInput={(e) => setWho(e.currentTarget.value)} required /></label>
      <label>currency <select name="currency" value={currency} onChange={(e) => setCurrency(e.currentTarget.value)}>
        {(currencies.length === 0 ? [currency] : currencies).map((c) => <option key={c} value={c}>{c}</option>)}
      </select></label>
      <label>chain <select name="chain" value={chain} onChange={(e) => setChain(e.currentTarget.value)}>
        <option value="">default</option>
        {chains.map((c) => <option key={c} value={c}>{c}</option>)}
      </select></label>
      <label>amount <input name="amount" inputMode="decimal" placeholder="100" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required /></label>
      <button type="submit" disabled={busy}>Deposit</button>
      <p class="hint">Credited as the chain confirms it: on the simulated clock, move the clock past its confirmations.</p>
      <Result outcome={outcome} id="deposit-result" />
    </form>
  );
}

function ClockForm({ done }: { done: () => void }) {
  const [advance, setAdvance] = useState('60000');
  const [set, setSet] = useState('');
  const [outcome, busy, run] = useAction(done);
  const move = (body: Record<string, number>): void => run(async () => {
    const r = await sim<{ now_ms: number }>('POST', '/sim/clock', body);
    // The engine's new time: delivery contracts and options it passed the expiry of leave the market list.
    noteEngineTime(r.now_ms);
    return `clock at ${new Date(r.now_ms).toISOString()} (${r.now_ms} ms)`;
  });
  const num = (v: string): number => (/^[0-9]+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN);
  return (
    <form class="control" onSubmit={(e) => { e.preventDefault(); move({ advance_ms: num(advance) }); }} data-testid="clock-form">
      <h3>Simulated clock</h3>
      <label>advance by (ms) <input name="advance_ms" inputMode="numeric" value={advance} onInput={(e) => setAdvance(e.currentTarget.value)} /></label>
      <button type="submit" disabled={busy}>Advance</button>
      <label>or set to (ms since the epoch) <input name="set_ms" inputMode="numeric" value={set} onInput={(e) => setSet(e.currentTarget.value)} /></label>
      <button type="button" disabled={busy} onClick={() => move({ set_ms: num(set) })}>Set</button>
      <Result outcome={outcome} id="clock-result" />
    </form>
  );
}

function IndexPriceForm({ contracts, done }: { contracts: readonly MarketRef[]; done: () => void }) {
  const [target, setTarget] = useState('');
  const [index, setIndex] = useState('');
  const [mark, setMark] = useState('');
  const [outcome, busy, run] = useAction(done);
  const chosen = contracts.find((c) => `${c.settle}/${c.name}` === target) ?? contracts[0];
  if (chosen === undefined) return null;
  const submit = (e: Event): void => {
    e.preventDefault();
    run(async () => {
      const r = await sim<{ contract: string; settle: string; mark_price: string; index_price: string }>('POST', '/sim/futures/prices',
        { contract: chosen.name, settle: chosen.settle, index, ...(mark.trim() === '' ? {} : { mark }) });
      return `${r.contract} (${r.settle}): index ${r.index_price}, mark ${r.mark_price}`;
    });
  };
  return (
    <form class="control" onSubmit={submit} data-testid="index-form">
      <h3>Index price</h3>
      <label>contract <select name="contract" value={`${chosen.settle}/${chosen.name}`} onChange={(e) => setTarget(e.currentTarget.value)}>
        {contracts.map((c) => <option key={`${c.settle}/${c.name}`} value={`${c.settle}/${c.name}`}>{c.name} ({c.settle})</option>)}
      </select></label>
      <label>index <input name="index" inputMode="decimal" value={index} onInput={(e) => setIndex(e.currentTarget.value)} required /></label>
      <label>mark (optional) <input name="mark" inputMode="decimal" value={mark} onInput={(e) => setMark(e.currentTarget.value)} /></label>
      <button type="submit" disabled={busy}>Set</button>
      <Result outcome={outcome} id="index-result" />
    </form>
  );
}

/** The three forms; `done` is called after each success (the user list is read again; the user's figures are pushed). */
export function ControlForms({ uid, contracts, done }: { uid: number; contracts: readonly MarketRef[]; done: () => void }) {
  return (
    <div class="forms">
      <DepositForm uid={uid} done={done} />
      <ClockForm done={done} />
      <IndexPriceForm contracts={contracts} done={done} />
    </div>
  );
}
