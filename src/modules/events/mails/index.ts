/** The mails feature's public surface: the renderer of every kind an event sends, for index.ts to register. */

export { eventMailRenderers, type MailsContext } from './mails.renderers.ts';
