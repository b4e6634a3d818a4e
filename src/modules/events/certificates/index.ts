/** The certificates feature's public surface: its routes (certificates and their credentials) and the issuance job. */
export {
  type CertificateDocuments,
  createCertificateDocuments,
} from './certificate-documents.service.ts';
export { findCertificate } from './certificates.repository.ts';
export { certificateRoutes } from './certificates.routes.ts';
export { listMyCertificates, verifyUrlOf } from './certificates.service.ts';
export { ISSUE_JOB, issuanceProgress, issueCertificatesJob } from './issuance.service.ts';
export { credentialRoutes } from './verifiable-credentials.routes.ts';
