/**
 * A market or event Gamma still calls open although its end date has passed: said in words
 * under the title, since its prices are no longer a forecast of something to come but wait on
 * the resolution.
 */
import { fmtDate, pastEnd, type StatusFields } from '../format.ts';

export function EndedNote({ item, noun }: { item: StatusFields; noun: 'market' | 'event' }) {
  const ended = pastEnd(item);
  if (ended === undefined) return null;
  return (
    <p className="ended-note" data-testid="ended-note">
      Ended {fmtDate(new Date(ended).toISOString())}: this {noun} is past its end date and awaits resolution. Until it resolves, its prices
      can still move.
    </p>
  );
}
