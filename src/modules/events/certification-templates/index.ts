/** The certifications feature's public surface: its routes, the live templates, and its table for the joins of certificates. */
export { listLiveTemplateIds } from './certification-templates.repository.ts';
export { certificationRoutes } from './certification-templates.routes.ts';
export { certificationTemplates } from './certification-templates.table.ts';
