/**
 * The operator's page: the control-plane token, a user's balances, open orders and positions (GET /sim/users/{uid},
 * read with the token), and the control plane's forms. The user's figures are read again after each action and
 * whenever the markets' public pushes show activity (at most once a second), so they follow trading without polling.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError, setSimToken, sim, simToken } from './api';
import { ControlForms } from './control-forms';
import type { MarketRef } from './markets';

type Row = Readonly<Record<string, unknown>>;

interface UserView {
  readonly uid: number;
  readonly main_uid: number;
  readonly spot: { readonly balances: readonly Row[]; readonly open_orders: readonly Row[] };
  readonly futures: readonly { readonly settle: string; readonly account: Row; readonly positions: readonly Row[]; readonly open_orders: readonly Row[] }[];
}

const cell = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : v === undefined || v === null ? '' : JSON.stringify(v));

/** A table of `rows` with `columns` (field names, shown as headers). */
function Table({ rows, columns, empty, id }: { rows: readonly Row[]; columns: readonly string[]; empty: string; id: string }) {
  if (rows.length === 0) return <p class="muted" data-testid={id}>{empty}</p>;
  return (
    <table class="list" data-testid={id}>
      <thead><tr>{columns.map((c) => <th key={c}>{c.replace(/_/g, ' ')}</th>)}</tr></thead>
      <tbody>{rows.map((r, i) => <tr key={i}>{columns.map((c) => <td key={c} class={c === 'currency' || c === 'currency_pair' || c === 'contract' || c === 'side' ? '' : 'num'}>{cell(r[c])}</td>)}</tr>)}</tbody>
    </table>
  );
}

function TokenField() {
  const [token, setToken] = useState(simToken());
  return (
    <form class="token" onSubmit={(e) => { e.preventDefault(); setSimToken(token.trim()); location.reload(); }}>
      <label>control-plane token
        <input type="password" name="sim-token" autoComplete="off" value={token} placeholder="admin_token (none: loopback only)"
          onInput={(e) => setToken(e.currentTarget.value)} /></label>
      <button type="submit">Use</button>
      {simToken() !== '' && <button type="button" onClick={() => { setSimToken(''); location.reload(); }}>Forget</button>}
      <span class="hint">kept in this tab only, sent in X-Sim-Token</span>
    </form>
  );
}

/** The user's view, read again on `uid`, `activity` (throttled to once a second) and `bump`. */
function useUserView(uid: number, activity: number, bump: number): { view: UserView | undefined; error: string } {
  const [view, setView] = useState<UserView | undefined>(undefined);
  const [error, setError] = useState('');
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const read = (): void => {
    if (uid === 0) return;
    last.current = Date.now();
    sim<UserView>('GET', `/sim/users/${uid}`).then((v) => { setView(v); setError(''); }, (e: unknown) => setError(describeError(e)));
  };
  useEffect(() => { setView(undefined); read(); }, [uid, bump]);
  useEffect(() => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => { timer.current = undefined; read(); }, Math.max(0, 1000 - (Date.now() - last.current)));
  }, [activity]);
  useEffect(() => () => { if (timer.current !== undefined) clearTimeout(timer.current); }, []);
  return { view, error };
}

export function AccountPage({ uid, activity, contracts }: { uid: number; activity: number; contracts: readonly MarketRef[] }) {
  const [users, setUsers] = useState<{ uid: number; main_uid: number }[]>([]);
  const [usersError, setUsersError] = useState('');
  const [bump, setBump] = useState(0);
  useEffect(() => { sim<{ uid: number; main_uid: number }[]>('GET', '/sim/users').then(setUsers, (e: unknown) => setUsersError(describeError(e))); }, [bump]);
  const { view, error } = useUserView(uid, activity, bump);
  return (
    <section class="account" data-testid="account">
      <TokenField />
      {usersError !== '' && <p class="error" data-testid="access-error">{usersError}</p>}
      <div class="columns wide-left">
        <div>
          <div class="panel">
            <label class="user-pick">user <select name="uid" value={String(uid)} onChange={(e) => { location.hash = `#/account/${e.currentTarget.value}`; }}>
              {(users.some((u) => u.uid === uid) ? users : [{ uid, main_uid: 0 }, ...users]).map((u) => (
                <option key={u.uid} value={String(u.uid)}>{u.uid}{u.main_uid !== 0 ? ` (sub-account of ${u.main_uid})` : ''}</option>
              ))}
            </select></label>
            {error !== '' && <p class="error">{error}</p>}
          </div>
          {view !== undefined && (
            <>
              <div class="panel"><h3>Spot balances</h3>
                <Table id="balances" rows={view.spot.balances} columns={['currency', 'available', 'locked']} empty="no balances" /></div>
              <div class="panel"><h3>Spot open orders</h3>
                <Table id="spot-orders" rows={view.spot.open_orders} columns={['id', 'currency_pair', 'account', 'side', 'type', 'price', 'amount', 'left', 'time_in_force']}
                  empty="no open orders" /></div>
              {view.futures.map((f) => (
                <div class="panel" key={f.settle}><h3>Futures · {f.settle.toUpperCase()}</h3>
                  <Table id={`futures-account-${f.settle}`} rows={[f.account]} columns={['total', 'available', 'unrealised_pnl', 'position_margin', 'order_margin', 'position_mode']} empty="" />
                  <h4>Positions</h4>
                  <Table id={`positions-${f.settle}`} rows={f.positions} columns={['contract', 'size', 'entry_price', 'mark_price', 'unrealised_pnl', 'leverage', 'liq_price', 'margin']} empty="no positions" />
                  <h4>Open orders</h4>
                  <Table id={`futures-orders-${f.settle}`} rows={f.open_orders} columns={['id', 'contract', 'size', 'left', 'price', 'tif', 'is_reduce_only']} empty="no open orders" />
                </div>
              ))}
            </>
          )}
        </div>
        <ControlForms uid={uid} contracts={contracts} done={() => setBump((b) => b + 1)} />
      </div>
    </section>
  );
}
