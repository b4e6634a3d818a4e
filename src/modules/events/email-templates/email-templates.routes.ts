/** Routes of docs/mail.md: the templates of the mails an event sends (list, read, override, restore, preview). */

import { sampleValues } from '../../../kernel/mail-templates/liquid.ts';
import { templateFamilyRoutes } from '../../../kernel/mail-templates/overrides.routes.ts';
import { templateSchemas } from '../../../kernel/mail-templates/overrides.schemas.ts';
import { EVENT_MAIL_KINDS } from '../../mail/index.ts';
import { eventTemplates } from './email-templates.service.ts';
import { defaultMail } from './event-mails.defaults.ts';

const OVERRIDE_EXAMPLE = {
  subject: 'See you at {{ edition_name }}!',
  body: '<p>Hi {{ recipient_name }},</p><p>{% if language == "es" %}¡Nos vemos!{% else %}See you there!{% endif %}</p><p><a href="{{ badge_url }}">Your badge</a></p>',
};

const confirmed = defaultMail('registration_confirmed', 'en');
const TEMPLATE_EXAMPLE = {
  kind: 'registration_confirmed',
  subject: confirmed.subject,
  body: '<!DOCTYPE html><html lang="en">… <a href="{{ badge_url }}">Open your badge</a> …</html>',
  source: 'default',
  // The first two of the kind's variables: the example shows their shape, the answer lists them all.
  variables: confirmed.variables.slice(0, 2),
};
const samples = sampleValues(confirmed);

export const eventEmailTemplateRoutes = templateFamilyRoutes({
  overrides: eventTemplates,
  schemas: templateSchemas({
    param: 'event_id' as const,
    kinds: EVENT_MAIL_KINDS,
    title: 'EventEmailTemplate',
    required:
      "the kind's link ({{ sign_url }}, {{ badge_url }}, {{ verify_url }}, {{ sign_in_url }}; {{ amount }} for refund_issued)",
    overrideExample: OVERRIDE_EXAMPLE,
    previewExample: { variables: { recipient_name: 'Lea Martins' } },
  }),
  module: 'events',
  prefix: '/events/:event_id',
  param: 'event_id',
  tag: 'Mail',
  operation: 'EventEmailTemplate',
  access:
    'Owner or admin of the event (staff get 403; a non-member 404 for a draft event, 403 for a published one).',
  kinds: `Kinds: ${EVENT_MAIL_KINDS.map((kind) => `\`${kind}\``).join(', ')}; any other kind is 404 \`NOT_FOUND\`.`,
  rules:
    "Templates are Liquid with the rules and limits of the projects' templates: no `include`, `render` or `layout`; " +
    "a template that does not parse, uses a variable the kind does not declare, lacks the kind's required variable " +
    'in the body, or cannot render its sample values within the limits is a 400 `VALIDATION_ERROR` naming `subject` ' +
    'or `body`. One override serves every language; it may branch on `{{ language }}`.',
  listed:
    "The effective template of every kind (five items): the event's override when it has one, otherwise the " +
    'built-in default, tagged with `source`.',
  languages:
    'The built-in defaults are shown in the language of `Accept-Language` (`en`, `pt-BR`, `es`; else `en`), ' +
    'as a recipient with that language gets them.',
  examples: {
    template: TEMPLATE_EXAMPLE,
    override: { ...TEMPLATE_EXAMPLE, ...OVERRIDE_EXAMPLE, source: 'override' },
    rendered: {
      subject: `You are registered: ${samples.edition_name}`,
      html: `<!DOCTYPE html><html lang="en">… <a href="${samples.badge_url}">Open your badge</a> …</html>`,
      text: `${samples.event_name}\n\nYour registration is confirmed\n\n… Open your badge (${samples.badge_url}) …`,
    },
  },
});
