/**
 * The built-in e-mail templates (docs/reference/projects.md): for each kind its declared variables and a
 * default subject and HTML body. A project may override a kind (email_templates table); without an override
 * these apply. The bodies are Liquid templates rendered with HTML escaping (kernel/mail-templates/liquid.ts);
 * the plain-text alternative is derived from the rendered HTML. Their layout is the one every built-in
 * e-mail shares (kernel/mail-templates/layout.ts).
 */
import { mailLayout } from '../../../kernel/mail-templates/layout.ts';
import {
  sampleValues as sampleCatalogValues,
  type TemplateCatalog,
  type TemplateVariable,
} from '../../../kernel/mail-templates/liquid.ts';
import type { EmailTemplateKind } from './email-templates.table.ts';

export interface DefaultTemplate extends TemplateCatalog {
  kind: EmailTemplateKind;
  subject: string;
  body: string;
  variables: TemplateVariable[];
}

const COMMON: TemplateVariable[] = [
  {
    name: 'action_url',
    description: 'The link the recipient follows to complete the action (required in the body)',
    required: true,
    example: 'https://app.example.com/actions/01937a4e-8f2b-7c3d?token=abc123',
  },
  {
    name: 'project_name',
    description: 'The name of the project sending the e-mail',
    required: false,
    example: 'Rust Conf',
  },
  {
    name: 'email',
    description: "The recipient's e-mail address",
    required: false,
    example: 'ana@example.com',
  },
  {
    name: 'expires_in_minutes',
    description: 'Minutes until the link expires',
    required: false,
    example: 30,
  },
];

const INVITER: TemplateVariable = {
  name: 'inviter_email',
  description: 'The e-mail address of the person who sent the invitation',
  required: false,
  example: 'marc@example.com',
};

interface Copy {
  title: string;
  preheader: string;
  heading: string;
  intro: string;
  button: string;
  outro: string;
}

/** The shared layout around one kind's copy (Liquid source; copy may contain Liquid too). */
function layout(copy: Copy): string {
  return mailLayout({
    ...copy,
    lang: 'en',
    header: '{{ project_name }}',
    button: { label: copy.button, variable: 'action_url' },
    fallback: 'If the button does not work, copy this link into your browser:',
    footer:
      'This message was sent to {{ email }} by {{ project_name }}. If you did not expect it, you can ignore it.',
  });
}

const EXPIRY = 'This link expires in {{ expires_in_minutes }} minutes.';

export const DEFAULT_TEMPLATES: Record<EmailTemplateKind, DefaultTemplate> = {
  verify: {
    kind: 'verify',
    subject: 'Confirm your e-mail address for {{ project_name }}',
    variables: COMMON,
    body: layout({
      title: 'Confirm your e-mail address',
      preheader: 'One click to confirm {{ email }} for {{ project_name }}.',
      heading: 'Confirm your e-mail address',
      intro: 'Please confirm that {{ email }} is your e-mail address to finish setting up your account.',
      button: 'Confirm e-mail address',
      outro: EXPIRY,
    }),
  },
  reset: {
    kind: 'reset',
    subject: 'Reset your {{ project_name }} password',
    variables: COMMON,
    body: layout({
      title: 'Reset your password',
      preheader: 'A password reset was requested for {{ email }}.',
      heading: 'Reset your password',
      intro:
        'Someone asked to reset the password of the account {{ email }}. If it was you, choose a new password below.',
      button: 'Choose a new password',
      outro: `${EXPIRY} If you did not ask for a reset, your password stays unchanged.`,
    }),
  },
  invite: {
    kind: 'invite',
    subject: '{{ inviter_email }} invited you to {{ project_name }}',
    variables: [...COMMON, INVITER],
    body: layout({
      title: 'You are invited',
      preheader: '{{ inviter_email }} invited you to join {{ project_name }}.',
      heading: 'You are invited to {{ project_name }}',
      intro: '{{ inviter_email }} invited you ({{ email }}) to join {{ project_name }}.',
      button: 'Accept the invitation',
      outro: `${EXPIRY.replace('link', 'invitation')}`,
    }),
  },
  magic_link: {
    kind: 'magic_link',
    subject: 'Your sign-in link for {{ project_name }}',
    variables: COMMON,
    body: layout({
      title: 'Sign in',
      preheader: 'Your one-time sign-in link for {{ project_name }}.',
      heading: 'Sign in to {{ project_name }}',
      intro: 'Use the button below to sign in as {{ email }}. The link works once.',
      button: 'Sign in',
      outro: `${EXPIRY} If you did not try to sign in, you can ignore this e-mail.`,
    }),
  },
};

/** The sample values of a kind's variables. */
export function sampleValues(kind: EmailTemplateKind): Record<string, string | number> {
  return sampleCatalogValues(DEFAULT_TEMPLATES[kind]);
}
