/**
 * The certifications feature's public surface: its routes, the live templates, its table for the
 * joins of certificates, and a preview's edits with their size rule (the certificates feature draws).
 */
export { listLiveTemplateIds } from './certification-templates.repository.ts';
export { certificationRoutes } from './certification-templates.routes.ts';
export { PreviewCertificationTemplateBody } from './certification-templates.schemas.ts';
export { checkDesignSize } from './certification-templates.service.ts';
export { certificationTemplates } from './certification-templates.table.ts';
