/** The sending's public surface: the mail service an app creates, and its parts the bench reuses. */
export { createMailer, type Mailer, type MailerDeps } from './mailer.ts';
export { openSenderPool } from './sender.session.ts';
export { classifySendError, SendFailure } from './smtp.ts';
export { redactMailUrl } from './transport.ts';
