/**
 * The operator's page: the control-plane token, a user's balances, open orders and positions (spot, perpetual and
 * delivery futures, options), and the control plane's forms. The user's figures live on the control plane's socket:
 * a `sim.user` subscription on `/ws/sim` with the token in its `auth` pushes the user's whole view (what
 * GET /sim/users/{uid} answers) on subscribe and whenever a command changes it — an order placed by a bot, a fill,
 * a transfer, a credited deposit, a new mark price — with no polling and no action of the page.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, describeError, setSimToken, sim, simSocketUrl, simToken } from './api';
import { ControlForms } from './control-forms';
import type { MarketRef } from './markets';
import { feed } from './socket';

type Row = Readonly<Record<string, unknown>>;

interface Derivatives { readonly settle: string; readonly account: Row; readonly positions: readonly Row[]; readonly open_orders: readonly Row[] }

interface UserView {
  readonly uid: number;
  readonly main_uid: number;
  readonly spot: { readonly balances: readonly Row[]; readonly open_orders: readonly Row[] };
  readonly futures: readonly Derivatives[];
  readonly delivery: readonly Derivatives[];
  readonly options: readonly Derivatives[];
}

const cell = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : v === undefined || v === null ? '' : JSON.stringify(v));
const TEXT_COLUMNS = new Set(['currency', 'currency_pair', 'contract', 'side', 'tif', 'time_in_force', 'type', 'account', 'position_mode']);

/** A table of `rows` with `columns` (field names, shown as headers). */
function Table({ rows, columns, empty, id }: { rows: readonly Row[]; columns: readonly string[]; empty: string; id: string }) {
  if (rows.length === 0) return <p class="muted" data-testid={id}>{empty}</p>;
  return (
    <table class="list" data-testid={id}>
      <thead><tr>{columns.map((c) => <th key={c} class={TEXT_COLUMNS.has(c) ? 'text' : ''}>{c.replace(/_/g, ' ')}</th>)}</tr></thead>
      <tbody>{rows.map((r, i) => <tr key={i}>{columns.map((c) => <td key={c} class={TEXT_COLUMNS.has(c) ? '' : 'num'}>{cell(r[c])}</td>)}</tr>)}</tbody>
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
      <span class="hint">kept in this tab only, sent in X-Sim-Token and in the socket's subscription</span>
    </form>
  );
}

/** `uid`'s view, live: the `sim.user` pushes of the control plane's socket. */
function useUserView(uid: number): { view: UserView | undefined; error: string } {
  const [view, setView] = useState<UserView | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    setView(undefined);
    setError('');
    if (uid === 0) return undefined;
    const token = simToken();
    return feed(simSocketUrl).subscribe('sim.user', [String(uid)], (r) => {
      const v = r as UserView;
      if (v.uid !== uid) return;
      setView(v);
      setError('');
    }, {
      auth: token === '' ? undefined : { method: 'sim_token', token },
      onRefused: (code, label, message) => setError(describeError(new ApiError(code === 4 ? 403 : 400, label, message))),
    });
  }, [uid]);
  return { view, error };
}

/** An account's positions (with `positions` columns) and open orders; one line when it has neither. */
function Lists({ d, id, positions }: { d: Derivatives; id: string; positions: readonly string[] }) {
  const orders = ['id', 'contract', 'size', 'left', 'price', 'tif', 'is_reduce_only'];
  if (d.positions.length === 0 && d.open_orders.length === 0) {
    return <p class="muted" data-testid={`${id}-empty-${d.settle}`}>no positions · no open orders</p>;
  }
  return (
    <>
      <h4>Positions</h4>
      <Table id={`${id}-positions-${d.settle}`} rows={d.positions} columns={positions} empty="no positions" />
      <h4>Open orders</h4>
      <Table id={`${id}-orders-${d.settle}`} rows={d.open_orders} columns={orders} empty="no open orders" />
    </>
  );
}

/** A perpetual or delivery account: the account's figures, positions and open orders. */
function FuturesPanel({ title, kind, f }: { title: string; kind: 'futures' | 'delivery'; f: Derivatives }) {
  return (
    <div class="panel"><h3>{title} · {f.settle.toUpperCase()}</h3>
      <Table id={`${kind}-account-${f.settle}`} rows={[f.account]} columns={['total', 'available', 'unrealised_pnl', 'position_margin', 'order_margin', 'position_mode']} empty="" />
      <Lists d={f} id={kind} positions={['contract', 'size', 'entry_price', 'mark_price', 'unrealised_pnl', 'leverage', 'liq_price', 'margin']} />
    </div>
  );
}

/** An options account: its figures, positions (mark, IV and greeks) and open orders. */
function OptionsPanel({ o }: { o: Derivatives }) {
  return (
    <div class="panel"><h3>Options · {o.settle.toUpperCase()}</h3>
      <Table id={`options-account-${o.settle}`} rows={[o.account]}
        columns={['total', 'available', 'equity', 'position_value', 'unrealised_pnl', 'init_margin', 'maint_margin', 'order_margin']} empty="" />
      <Lists d={o} id="options" positions={['contract', 'size', 'entry_price', 'mark_price', 'mark_iv', 'unrealised_pnl', 'delta', 'gamma', 'vega', 'theta']} />
    </div>
  );
}

export function AccountPage({ uid, contracts }: { uid: number; contracts: readonly MarketRef[] }) {
  const [users, setUsers] = useState<{ uid: number; main_uid: number }[]>([]);
  const [usersError, setUsersError] = useState('');
  const [bump, setBump] = useState(0);
  useEffect(() => { sim<{ uid: number; main_uid: number }[]>('GET', '/sim/users').then(setUsers, (e: unknown) => setUsersError(describeError(e))); }, [bump]);
  const { view, error } = useUserView(uid);
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
            {error !== '' && <p class="error" data-testid="view-error">{error}</p>}
          </div>
          {view !== undefined && (
            <>
              <div class="panel"><h3>Spot balances</h3>
                <Table id="balances" rows={view.spot.balances} columns={['currency', 'available', 'locked']} empty="no balances" /></div>
              <div class="panel"><h3>Spot open orders</h3>
                <Table id="spot-orders" rows={view.spot.open_orders} columns={['id', 'currency_pair', 'account', 'side', 'type', 'price', 'amount', 'left', 'time_in_force']}
                  empty="no open orders" /></div>
              {view.futures.map((f) => <FuturesPanel key={`f${f.settle}`} title="Perpetual futures" kind="futures" f={f} />)}
              {view.delivery.map((f) => <FuturesPanel key={`d${f.settle}`} title="Delivery futures" kind="delivery" f={f} />)}
              {view.options.map((o) => <OptionsPanel key={`o${o.settle}`} o={o} />)}
            </>
          )}
        </div>
        <ControlForms uid={uid} contracts={contracts} done={() => setBump((b) => b + 1)} />
      </div>
    </section>
  );
}
