/**
 * The mails an event sends to people (docs/mail.md) as a family of templates: built-in defaults in three
 * languages (event-mails.defaults.ts) and the overrides an event's owner and admins write. The features
 * that send a kind fill it here (`draftEventMail`), in the recipient's language.
 */
import type { Executor } from '../../../kernel/db/client.ts';
import type { TemplateDraft, Variables } from '../../../kernel/mail-templates/liquid.ts';
import { TemplateOverrides } from '../../../kernel/mail-templates/overrides.service.ts';
import type { Language } from '../../../kernel/pages/language.ts';
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
 * The event's effective template of `kind` in `language` (a variable too, for overrides) with
 * `variables`: rendered by the mail module when the mail is written.
 */
export function draftEventMail(
  db: Executor,
  eventId: string,
  kind: EventMailKind,
  language: Language,
  variables: Variables,
): Promise<TemplateDraft> {
  return eventTemplates.draft(db, eventId, kind, language, variables);
}
