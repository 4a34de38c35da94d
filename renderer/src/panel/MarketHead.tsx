/** The market panel's heading: icon, question, star, alert, and the event it belongs to. */
import { AlertButton } from '../alerts/AlertButton.tsx';
import type { Market } from '../api.ts';
import { num, textList } from '../../../src/contract/market-rules.ts';
import { Icon } from '../components/Icon.tsx';
import { EndedNote } from './EndedNote.tsx';
import { Toolbar } from '../components/Toolbar.tsx';
import { useNav } from '../nav.tsx';
import { Star } from '../watchlist.tsx';

export function MarketHead({ m }: { m: Market }) {
  const nav = useNav();
  const event = m.events?.[0];
  const title = m.question ?? m.slug ?? m.id;
  return (
    <>
      <div className="panel-title-row">
        <Icon kind="market" id={m.id} size={36} />
        <h2 className="detail-title" data-testid="detail-title">
          {title}
        </h2>
        {/* One Tab stop each (arrows inside), so Tab goes from the title to the chart in a few keys. */}
        <Toolbar label="Market actions" className="panel-actions">
          <Star kind="market" id={m.id} label={title} size={18} />
          {/* A price alert watches the first outcome's price (the service's rule): named, with its price. */}
          <AlertButton
            subject={{ kind: 'market', id: m.id, title, price: num(textList(m.outcomePrices)[0]), outcome: textList(m.outcomes)[0] }}
          />
        </Toolbar>
      </div>
      <EndedNote item={m} noun="market" />
      {event ? (
        <Toolbar label="Event" className="detail-event">
          <span className="muted">Event </span>
          <button type="button" className="link-btn" onClick={() => nav.open('event', event.id)}>
            {event.title ?? event.slug ?? event.id}
          </button>
          <span className="muted"> · </span>
          <button type="button" className="link-btn" onClick={() => nav.marketsOfEvent({ id: event.id, title: event.title ?? event.id })}>
            all its markets
          </button>
        </Toolbar>
      ) : null}
    </>
  );
}
