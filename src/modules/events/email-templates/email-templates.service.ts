/**
 * The mails an event sends to people (docs/mail.md) as a family of templates: built-in defaults in three
 * languages (event-mails.defaults.ts) and the overrides an event's owner and admins write. The features
 * that send a kind fill it here (`eventMailDrafter`), in the recipient's language.
 */
import type { Executor } from '../../../kernel/db/client.ts';
import { TemplateOverrides } from '../../../kernel/mail-templates/overrides.service.ts';
import { EVENT_MAIL_KINDS, type EventMailKind } from '../../mail/index.ts';
import { requireEventRole } from '../events/index.ts';
import { overrideStore } from './email-templates.repository.ts';
import { defaultMail } from './event-mails.defaults.ts';

export const eventTemplates = new TemplateOverrides<EventMailKind>({
  kinds: EVENT_MAIL_KINDS,
  defaultOf: defaultMail,
  store: overrideStore,
  requireManager: async (db, eventId, actor) => {
    await requireEventRole(db, eventId, actor, 'admin');
  },
  // Overrides serve every language and may branch on it.
  fixedValues: (language) => ({ language }),
});

/**
 * Drafts event mails: the event's effective template of a kind in the recipient's language (a
 * variable too, for overrides) with the sender's variables, rendered by the mail module when the
 * mail is written. Each event's override of a kind is read once per drafter: make one per claim of
 * mails (a claim's mails are mostly one event's).
 */
export function eventMailDrafter(db: Executor) {
  return eventTemplates.drafter(db);
}
