/**
 * The built-in e-mail templates (docs/reference/projects.md): for each kind its declared variables and a
 * default subject and HTML body. A project may override a kind (email_templates table); without an override
 * these apply. The bodies are Liquid templates rendered with HTML escaping (email-templates.render.ts); the
 * plain-text alternative is derived from the rendered HTML.
 *
 * Layout rules of the defaults, for the mail clients that matter (Outlook's Word engine, Gmail,
 * Apple Mail): tables for layout with `role="presentation"`, inline styles only (Gmail drops
 * `<style>` in some views), no external images or fonts, a hidden preheader, a "bulletproof"
 * button (a padded table cell around the link, so it stays a button without CSS support) and the
 * link again as plain text for clients that strip buttons. Colours meet WCAG AA contrast
 * (#1f2937 on #ffffff, #ffffff on #2563eb, #4b5563 on #ffffff).
 */
import type { EmailTemplateKind } from './email-templates.table.ts';

export interface TemplateVariable {
  name: string;
  description: string;
  /** Must appear in the body of every template of the kind. */
  required: boolean;
  /** The sample value used by previews and the default rendering. */
  example: string | number;
}

export interface DefaultTemplate {
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
  const font = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
  return `<!DOCTYPE html>
<html lang="en" xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<meta name="color-scheme" content="light">
<title>${copy.title}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<div style="display:none;max-height:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;color:#f3f4f6;opacity:0;" data-preheader>${copy.preheader}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr>
<td align="center" style="padding:32px 16px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border-radius:8px;">
<tr>
<td style="padding:32px 40px 8px 40px;${font}font-size:14px;line-height:20px;color:#4b5563;font-weight:600;letter-spacing:0.02em;">{{ project_name }}</td>
</tr>
<tr>
<td style="padding:8px 40px 0 40px;">
<h1 style="margin:0;${font}font-size:24px;line-height:32px;color:#1f2937;font-weight:700;">${copy.heading}</h1>
</td>
</tr>
<tr>
<td style="padding:16px 40px 0 40px;${font}font-size:16px;line-height:24px;color:#1f2937;">
<p style="margin:0;">${copy.intro}</p>
</td>
</tr>
<tr>
<td align="left" style="padding:24px 40px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0">
<tr>
<td align="center" bgcolor="#2563eb" style="border-radius:6px;background-color:#2563eb;">
<a href="{{ action_url }}" target="_blank" style="display:inline-block;padding:12px 24px;${font}font-size:16px;line-height:24px;color:#ffffff;font-weight:600;text-decoration:none;border-radius:6px;">${copy.button}</a>
</td>
</tr>
</table>
</td>
</tr>
<tr>
<td style="padding:0 40px;${font}font-size:14px;line-height:20px;color:#4b5563;">
<p style="margin:0 0 8px 0;">${copy.outro}</p>
<p style="margin:0 0 8px 0;">If the button does not work, copy this link into your browser:</p>
<p style="margin:0;word-break:break-all;"><a href="{{ action_url }}" style="color:#1d4ed8;text-decoration:underline;">{{ action_url }}</a></p>
</td>
</tr>
<tr>
<td style="padding:24px 40px 32px 40px;${font}font-size:12px;line-height:18px;color:#4b5563;">
<p style="margin:0;border-top:1px solid #e5e7eb;padding-top:16px;">This message was sent to {{ email }} by {{ project_name }}. If you did not expect it, you can ignore it.</p>
</td>
</tr>
</table>
</td>
</tr>
</table>
</body>
</html>
`;
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
  return Object.fromEntries(DEFAULT_TEMPLATES[kind].variables.map((v) => [v.name, v.example]));
}
