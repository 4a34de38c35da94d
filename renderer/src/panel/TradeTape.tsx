/**
 * The trade tape: the market's last trades as the stream reports them (time, outcome, side,
 * price, size), newest first. It starts when the page opens (the stream carries trades, not
 * their history); offline or for a market that cannot trade, it says why it is empty.
 */
import { fmtCents } from '../chance.ts';
import { fmtInt } from '../format.ts';
import { useLive } from '../live.tsx';
import { useLiveBook } from '../stream/store.ts';

/** A trade's time to the second, 24-hour, so the column stays one short line. */
const time = (ms: number) =>
  new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

export function TradeTape({ id, off }: { id: string; off?: string | undefined }) {
  const live = useLiveBook(id);
  const { online, connected } = useLive();
  const tape = live?.tape ?? [];
  const many = (live?.outcomes.length ?? 0) > 1;
  return (
    <section className="panel-section trade-tape" aria-label="Trades" data-testid="trade-tape">
      <div className="panel-section-head">
        <h3 className="detail-h">Trades</h3>
      </div>
      {off !== undefined ? (
        <p className="muted book-message">{off}</p>
      ) : tape.length === 0 ? (
        <p className="muted book-message" data-testid="tape-empty">
          {!online || !connected
            ? 'Trades show here as they happen; the stream is off while offline.'
            : 'No trades since this page opened.'}
        </p>
      ) : (
        <table aria-label="Last trades">
          <thead>
            <tr>
              <th scope="col">Time</th>
              {many ? <th scope="col">Outcome</th> : null}
              <th scope="col">Side</th>
              <th scope="col">Price</th>
              <th scope="col">Shares</th>
            </tr>
          </thead>
          <tbody>
            {tape.map((t, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two trades can share every field; the tape only grows at the top
              <tr key={`${t.assetId}/${t.time}/${t.transactionHash ?? ''}/${i}`} data-testid="tape-row">
                <td>{time(t.time)}</td>
                {many ? <td className="tape-outcome">{t.outcome}</td> : null}
                <td className={t.side.toUpperCase() === 'BUY' ? 'tape-buy' : 'tape-sell'}>
                  {t.side.toUpperCase() === 'BUY' ? 'Buy' : 'Sell'}
                </td>
                <td>{fmtCents(t.price)}</td>
                <td>{t.size === null ? '—' : fmtInt(Math.round(t.size))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
