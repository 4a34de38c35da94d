/**
 * The fake CLOB's check of a posted order's signature, the way the CLOB V2 checks it (live since
 * 2026-04-28): the order must be V2-shaped (`timestamp`, `metadata`, `builder`; no `nonce`,
 * `feeRateBps` or `taker`), and the EIP-712 signature over the exchange's domain must recover to
 * the order's `signer`, which for an EOA order (signatureType 0) is its `maker` too.
 *
 * The typed data is Polymarket's (fixtures/polymarket-2026/d_clob/, from @polymarket/clob-client-v2
 * 1.1.0 `ctfExchangeV2TypedData.ts` and `config.ts`): domain `{name: "Polymarket CTF Exchange",
 * version: "2", chainId: 137, verifyingContract}` with the V2 exchange (or the neg-risk V2
 * exchange for neg-risk markets), or version "3" with ExchangeV3. The signer is recovered with
 * ethers' `verifyTypedData`; no EIP-712 encoding is written here.
 *
 * Error bodies: `order_version_mismatch` is the text clob-client-v2 looks for
 * (`ORDER_VERSION_MISMATCH_ERROR`) to re-read `/version` and re-sign; "invalid signature" is the
 * fake's choice where no recorded CLOB answer was found.
 */
import { utils } from 'ethers';

export const POLYGON = 137;
export const EXCHANGE_V2 = '0xE111180000d2663C0091e4f400237545B87B996B';
export const NEG_RISK_EXCHANGE_V2 = '0xe2222d279d744050d28e00520010520000310F59';
export const EXCHANGE_V3 = '0xe3333700cA9d93003F00f0F71f8515005F6c00Aa';
export const DOMAIN_NAME = 'Polymarket CTF Exchange';

export const ORDER_VERSION_MISMATCH = 'order_version_mismatch';
export const INVALID_SIGNATURE = 'invalid signature';

const ORDER_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
    { name: 'timestamp', type: 'uint256' },
    { name: 'metadata', type: 'bytes32' },
    { name: 'builder', type: 'bytes32' },
  ],
};

/** The V1 order's fields that V2 dropped. */
const V1_ONLY = ['nonce', 'feeRateBps', 'taker'];
const V2_ONLY = ['timestamp', 'metadata', 'builder'];

export interface SigningCheck {
  /** The token's market is neg-risk: its V2 orders are signed for the neg-risk V2 exchange. */
  negRisk: boolean;
  chainId?: number;
}

/** undefined when the order is a V2 order its signer signed; else the CLOB's `{error}` text. */
export function checkSignedOrder(order: Record<string, unknown>, check: SigningCheck): string | undefined {
  if (V1_ONLY.some((k) => order[k] !== undefined) || !V2_ONLY.every((k) => order[k] !== undefined)) return ORDER_VERSION_MISMATCH;
  const signature = order['signature'];
  const signer = order['signer'];
  const maker = order['maker'];
  if (typeof signature !== 'string' || typeof signer !== 'string' || typeof maker !== 'string') return INVALID_SIGNATURE;
  // POLY_1271 (3) wraps an ERC-7739 signature checked on chain by the wallet: not modelled here.
  if (order['signatureType'] !== 0 && order['signatureType'] !== 1 && order['signatureType'] !== 2) return INVALID_SIGNATURE;
  if (order['signatureType'] === 0 && maker.toLowerCase() !== signer.toLowerCase()) return INVALID_SIGNATURE;
  const side = order['side'] === 'BUY' ? 0 : order['side'] === 'SELL' ? 1 : undefined;
  if (side === undefined) return 'invalid order side';
  const message = {
    salt: String(order['salt']),
    maker,
    signer,
    tokenId: String(order['tokenId']),
    makerAmount: String(order['makerAmount']),
    takerAmount: String(order['takerAmount']),
    side,
    signatureType: order['signatureType'],
    timestamp: String(order['timestamp']),
    metadata: order['metadata'],
    builder: order['builder'],
  };
  const chainId = check.chainId ?? POLYGON;
  const domains = [
    { name: DOMAIN_NAME, version: '2', chainId, verifyingContract: check.negRisk ? NEG_RISK_EXCHANGE_V2 : EXCHANGE_V2 },
    { name: DOMAIN_NAME, version: '3', chainId, verifyingContract: EXCHANGE_V3 },
  ];
  for (const domain of domains) {
    let recovered: string;
    try {
      recovered = utils.verifyTypedData(domain, ORDER_TYPES, message, signature);
    } catch {
      return INVALID_SIGNATURE;
    }
    if (recovered.toLowerCase() === signer.toLowerCase()) return undefined;
  }
  return INVALID_SIGNATURE;
}
