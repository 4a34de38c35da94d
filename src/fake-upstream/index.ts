/** Public surface of the fake Gamma upstream. */
export { generateCatalog, DEFAULT_NOW, type GenerateOptions, type SyntheticCatalog } from './synthetic.ts';
export {
  FakeCatalog,
  createSyntheticCatalog,
  type CatalogParts,
  type CatalogOptions,
  type MarketRecord,
  type EventRecord,
} from './catalog.ts';
export { FIXTURES_DIR, loadFixtureCatalog, readFixtureParts } from './fixture-catalog.ts';
export { startFakeUpstream, type FakeUpstream, type FakeUpstreamOptions } from './server.ts';
export { FaultScript, type Fault, type FaultKind, type FaultMatch, type FaultRequest, type RandomFaults } from './faults.ts';
export { RequestLog, type RequestLogEntry } from './request-log.ts';
export { encodeCursor, ORDER_FIELDS } from './query.ts';
export { runFakeUpstream, serveFakeUpstream, parseFakeUpstreamArgs, USAGE, type FakeUpstreamArgs, type RunIo } from './main.ts';
export { FakeClob, createFakeOrders, catalogMarkets, type FakeClobOptions, type RawOrder, type FakeOrdersOptions } from './clob.ts';
export {
  FakeLeaderboard,
  FAKE_CATEGORIES,
  FAKE_PERIODS,
  FAKE_ORDERS,
  type RawLeaderboardEntry,
  type FakeLeaderboardOptions,
} from './data-api.ts';
export { FakeTrading, TRADING_ROUTES, type FakeOrder, type FakeTradingOptions } from './trading.ts';
export { FakeApiKeys, deterministicCredentials, type ApiKeyAnswer } from './api-keys.ts';
export { FakeClobMarkets, type ClobMarketSource } from './clob-markets.ts';
export { FakeClobAccount } from './clob-account.ts';
export { FakeLimits } from './limits.ts';
export { mutate, mutateBody, MutationError, MUTATE_PATH, type Mutation, type MutationResult } from './mutations.ts';
export {
  FakeMarketWs,
  marketWsControl,
  MARKET_WS_PATH,
  MARKET_WS_CONTROL_PATH,
  MARKET_WS_MAX_ASSETS,
  INVALID_OPERATION,
  MALFORMED_FRAME,
  type MarketWsOptions,
  type MarketWsFaults,
  type MarketWsSocketInfo,
  type MarketWsReceived,
  type MarketChange,
  type MarketEvent,
} from './market-ws.ts';
export { bookHash, LiveBook, LiveBooks, type BookSummary, type BookLevel, type Side } from './market-books.ts';
export { onMutation, type MutationListener } from './mutations.ts';
