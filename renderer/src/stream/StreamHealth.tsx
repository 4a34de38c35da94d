/**
 * The stream's health in the status bar: sockets, assets, messages per second and the age of the
 * last message; amber while a socket is stalled (dropped and reconnecting, or silent). Off when
 * the service is offline or has no WebSocket host, idle when nothing is subscribed.
 */
import { fmtInt } from '../format.ts';
import { useLive } from '../live.tsx';
import { fmtAge } from './LiveCells.tsx';
import { useStreamStatus } from './store.ts';
import { plural } from '../plural.ts';

export function StreamHealth() {
  const seen = useStreamStatus();
  const { connected, online, status } = useLive();
  const s = seen?.status ?? status?.live;
  if (!s) return null;
  const since = seen ? seen.now - seen.at : 0;
  const lastAge = s.lastMessageAgeMs === null ? null : s.lastMessageAgeMs + since;
  // A socket quiet past the limit (a frozen one answers no PING), or a status that stopped coming
  // (the service is gone), vouches for nothing: amber before the socket is even replaced.
  const quiet = s.shards.some((sh) => sh.assets > 0 && (sh.state !== 'open' || (sh.quietMs ?? 0) + since >= s.staleAfterMs));
  const stalled = s.stalled || (s.assets > 0 && (quiet || since > s.staleAfterMs));
  let text: string;
  let kind: string;
  if (!connected || !online || s.state === 'off') {
    kind = 'off';
    text = 'Live off';
  } else if (s.state === 'idle' || s.assets === 0) {
    kind = 'idle';
    text = 'Live idle';
  } else {
    kind = stalled ? 'stalled' : s.state === 'live' ? 'live' : 'connecting';
    const msgs = s.messagesPerSecond >= 10 ? Math.round(s.messagesPerSecond) : Math.round(s.messagesPerSecond * 10) / 10;
    const head = stalled ? 'Live stalled' : s.state === 'connecting' ? 'Live connecting' : 'Live';
    text =
      `${head} · ${fmtInt(s.sockets.open)}/${plural(s.sockets.total, 'socket')}` +
      ` · ${plural(s.assets, 'asset')} · ${msgs} msg/s` +
      (lastAge === null ? '' : ` · last ${lastAge < 1000 ? `${(lastAge / 1000).toFixed(1)} s` : fmtAge(lastAge)} ago`);
  }
  const detail = [
    s.url ? `Market channel: ${s.url}` : 'No market channel (offline, or no WebSocket host)',
    `State: ${s.state}${stalled ? ' (stalled)' : ''}`,
    `Reconnects ${fmtInt(s.counters.drops)} · replaced for silence ${fmtInt(s.counters.replaced)} · resyncs ${fmtInt(s.counters.resyncs)}`,
    `Messages ${fmtInt(s.counters.messages)} · malformed ${fmtInt(s.counters.malformed)} · duplicates ${fmtInt(s.counters.duplicates)}`,
  ].join('\n');
  return (
    <span className={`sb-item sb-stream ${kind}`} data-testid="stream-health" data-state={kind} title={detail}>
      <span className="sb-dot" aria-hidden="true" />
      {text}
    </span>
  );
}
