/** The signatures feature's public surface: its routes, the signatures a certificate carries, and the signing page's view. */
export {
  activeSignatureIds,
  findRequest,
  signaturesActiveAt,
  signaturesByIds,
} from './signatures.repository.ts';
export { signatureRoutes } from './signatures.routes.ts';
export type { SignatureRequestView } from './signatures.schemas.ts';
export { lookUpRequestView, signUrl } from './signatures.service.ts';
