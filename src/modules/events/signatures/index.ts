/** The signatures feature's public surface: its routes, the signatures a certificate carries, and the signing page's view. */
export { activeSignatureIds, signaturesActiveAt, signaturesByIds } from './signatures.repository.ts';
export { signatureRoutes } from './signatures.routes.ts';
export type { SignatureRequestView } from './signatures.schemas.ts';
export { lookUpRequestView } from './signatures.service.ts';
