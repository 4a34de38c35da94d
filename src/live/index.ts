/** The live layer's surface (docs/architecture.md, "The live layer"). */
export {
  LiveMarkets,
  type BookFetcher,
  type LiveChange,
  type LiveEvents,
  type LiveFrame,
  type LiveFrameEvent,
  type LiveMarketNotice,
  type LiveOptions,
} from './live-markets.ts';
export { bookSummaryHash, type BookSummary } from './book-hash.ts';
export {
  MARKET_CHANNEL_PATH,
  USER_CHANNEL_PATH,
  PING,
  PONG,
  CUSTOM_EVENTS,
  BROADCAST_EVENTS,
  channelUrl,
  eventAssets,
  isAssetId,
  parseFrame,
} from './protocol.ts';
export { bookPrice, quoteOf, type QuoteReads } from './quotes.ts';
