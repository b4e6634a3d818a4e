/** The e-mail templates feature's public surface: its routes, and `renderEmail` for features that send mail. */

export { emailTemplateRoutes } from './email-templates.routes.ts';
export { renderEmail } from './email-templates.service.ts';
