/**
 * The wallets feature's public surface: its routes, the wallet guard every wallet-owned feature
 * calls first, the wallet's collectors (bound by the OAuth flows of `connections/`), the SQL
 * conditions other features' repositories add to stay inside a wallet, and the schemas shared
 * with the features above it.
 */

export { requireWalletOwner } from './wallets.access.ts';
export {
  collectorOfWallet,
  findCollector,
  findOwnedWallet,
  findWallet,
  insertCollector,
  isOwnedBy,
  listCollectorsOfOwner,
  ownerOfWallet,
  revokeCollector,
} from './wallets.repository.ts';
export { walletRoutes } from './wallets.routes.ts';
export { ProviderSlug, SELLER_EXAMPLE, Seller } from './wallets.schemas.ts';
export type { CollectorRow, WalletRow } from './wallets.table.ts';
