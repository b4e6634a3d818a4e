/** The certificates feature's public surface: its routes (certificates and their credentials) and the issuance job. */
export { certificateRoutes } from './certificates.routes.ts';
export { ISSUE_JOB, issuanceProgress, issueCertificatesJob } from './issuance.service.ts';
export { credentialRoutes } from './verifiable-credentials.routes.ts';
