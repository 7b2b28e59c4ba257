// Read-your-writes across the replicated log: every answer of a node carries X-Rm-Seq (the engine seq its state
// includes); a client that sends the leader's X-Rm-Seq as X-Rm-Min-Seq to a follower is answered from a state
// that includes its write: the follower holds the read until it has applied that seq, or answers 503
// NotCaughtUp (TOO_BUSY) once engine.log.read_wait_ms ran out. A malformed value is a 400 and reads nothing.
import { describe, expect, it } from 'vitest';
import { plainFetch, signedFetch } from '../api/http-helpers.js';
import { replicationEnv, until } from './replication-env.js';

type J = Record<string, unknown>;
const env = replicationEnv('ryw');
const node = (name: string, follow: boolean) => env.node(name, 'ryw', follow, { checkpoint_every: 0, read_wait_ms: 800 });

const place = (port: number, price: string, text: string) => signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders',
  body: JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price, text }) });
const read = (port: number, id: string, minSeq?: string) => signedFetch(port, { path: `/api/v4/spot/orders/${id}`, query: 'currency_pair=BTC_USDT',
  headers: minSeq === undefined ? {} : { 'X-Rm-Min-Seq': minSeq } });
const seqOf = (h: Headers): number => Number(h.get('x-rm-seq'));

describe('read-your-writes on a follower', () => {
  it('a follower given the leader\'s X-Rm-Seq answers from a state holding the write, waits for it, or says it is behind', async () => {
    const [leader, lp] = await node('rl', false);
    await until('leadership', () => leader.role === 'leader');
    const [, fp] = await node('rf', true);

    // Write on the leader, read at once on the follower with the leader's seq: always the order just placed.
    for (let i = 0; i < 30; i++) {
      const w = await place(lp, String(50_000 + i), `t-ryw-${i}`);
      expect(w.status).toBe(201);
      const seq = seqOf(w.headers);
      expect(seq).toBeGreaterThanOrEqual(i + 1);
      const r = await read(fp, String((w.body as J).id), String(seq));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect((r.body as J).text).toBe(`t-ryw-${i}`);
      expect(seqOf(r.headers)).toBeGreaterThanOrEqual(seq);
    }

    // A seq the log does not hold yet: the follower holds the read until a later write brings it.
    const last = await place(lp, '49000', 't-ryw-last');
    const next = seqOf(last.headers) + 1;
    const t0 = Date.now();
    const held = read(fp, String((last.body as J).id), String(next));
    await new Promise((r) => setTimeout(r, 200));
    expect((await place(lp, '48000', 't-ryw-next')).status).toBe(201);
    const answered = await held;
    expect(answered.status).toBe(200);
    expect(seqOf(answered.headers)).toBeGreaterThanOrEqual(next);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);

    // Never reached within read_wait_ms: 503 TOO_BUSY naming the applied seq; reads nothing.
    const far = seqOf(last.headers) + 1000;
    const late = await read(fp, String((last.body as J).id), String(far));
    expect(late.status).toBe(503);
    expect(late.body).toMatchObject({ label: 'TOO_BUSY' });
    expect((late.body as J).message).toContain(`not yet ${far}`);

    // A malformed value: 400, nothing read.
    const bad = await read(fp, String((last.body as J).id), 'soon');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ label: 'INVALID_PARAM_VALUE' });

    // Without the header the follower answers at once from what it has, with its seq.
    const plain = await plainFetch(fp, '/api/v4/spot/order_book?currency_pair=BTC_USDT');
    expect(plain.status).toBe(200);
    expect(seqOf(plain.headers)).toBeGreaterThanOrEqual(next);
  }, 60_000);
});
