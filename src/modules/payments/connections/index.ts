/**
 * The connections feature's public surface: its routes (OAuth connect, callback, collectors,
 * revocation; a wallet's sellers), the sellers as other features read them, and calls made with a
 * seller's token.
 */

export {
  findLiveSellersByAccount,
  findSeller,
  findSellerOfWallet,
  insertTestSeller,
  sealedTokensOfSeller,
} from './connections.repository.ts';
export { connectionRoutes } from './connections.routes.ts';
export { ProviderParams } from './connections.schemas.ts';
export type { SellerRow } from './connections.table.ts';
export { NoSellerTokens, withSellerToken } from './seller-token.ts';
export { sellerRoutes } from './sellers.routes.ts';
