/** The events' mail templates feature: its routes, and `eventMailDrafter` for the features that send mail. */

export { eventEmailTemplateRoutes } from './email-templates.routes.ts';
export { eventMailDrafter } from './email-templates.service.ts';
export { BADGE_QR_CID, roleName } from './event-mails.defaults.ts';
