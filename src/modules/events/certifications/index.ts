/** The certifications feature's public surface: its routes, the live templates, and its table for the joins of certificates. */
export { listLiveTemplateIds } from './certifications.repository.ts';
export { certificationRoutes } from './certifications.routes.ts';
export { certificationTemplates } from './certifications.table.ts';
