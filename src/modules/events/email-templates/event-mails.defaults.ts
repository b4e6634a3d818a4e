/**
 * The built-in mails an event sends to people (docs/mail.md): for each kind its declared variables
 * and a default subject and HTML body in each language (`en`, `pt-BR`, `es`). An event may override a
 * kind (event_email_templates); an override is one template for every language, and may branch on
 * the `language` variable. The bodies share the layout of every built-in e-mail
 * (kernel/mail-templates/layout.ts); the registration's QR code is the inline image `cid:badge-qr`.
 */

import { mailLayout } from '../../../kernel/mail-templates/layout.ts';
import { type TemplateVariable, templateVariable } from '../../../kernel/mail-templates/liquid.ts';
import type { DefaultTemplate } from '../../../kernel/mail-templates/overrides.service.ts';
import type { Language } from '../../../kernel/pages/language.ts';
import type { EventMailKind } from '../../mail/index.ts';

/** The content id of the badge's QR code in a registration's mail (an inline attachment). */
export const BADGE_QR_CID = 'badge-qr';

const v = templateVariable;

const RECIPIENT = v('recipient_name', 'The name of the person the mail is for', 'Ana Souza');
const EVENT = v('event_name', 'The name of the event', 'Rust Conf');
const EDITION = v('edition_name', 'The name of the edition', 'Rust Conf 2027');
const LANGUAGE = v('language', 'The language of the mail: en, pt-BR or es', 'en');
const TICKET = v('ticket_name', 'The name of the ticket type', 'Full pass');
const BADGE_URL = v(
  'badge_url',
  "The holder's badge page, with its QR code (required)",
  'https://convene.example/b/7f3a9c',
);

/** Each kind's variables; the first required one is the kind's link. */
export const MAIL_VARIABLES: Record<EventMailKind, TemplateVariable[]> = {
  signature_request: [
    v(
      'sign_url',
      'The page where the signatory signs or declines (required)',
      'https://convene.example/sign?token=abc',
      true,
    ),
    v('requester', 'Who asks for the signature (name, else e-mail)', 'Marc Lima'),
    v('deadline', 'Until when the link works (UTC)', 'December 1, 2027 at 6:00 PM UTC'),
    RECIPIENT,
    EVENT,
    EDITION,
    LANGUAGE,
  ],
  registration_confirmed: [
    { ...BADGE_URL, required: true },
    v('dates', "The edition's dates (UTC)", 'March 3 – 5, 2027'),
    v('starts_at', 'When the edition starts (UTC)', 'March 3, 2027 at 9:00 AM UTC'),
    v('venue', "The edition's venue", 'Centro de Convenções, São Paulo'),
    TICKET,
    v('amount', 'What was paid, formatted (empty for a free ticket)', 'R$ 150,00'),
    v(
      'payment_reference',
      'The payment reference (empty for a free ticket)',
      '01937a4e-8f2b-7c3d-9a1b-2c3d4e5f6a7b',
    ),
    RECIPIENT,
    EVENT,
    EDITION,
    LANGUAGE,
  ],
  refund_issued: [
    v('amount', 'The amount refunded, formatted (required)', 'R$ 150,00', true),
    v('reason', 'Why it was refunded', 'The event was moved to another date.'),
    v(
      'ticket_status',
      'What happened to the ticket',
      'Your registration is cancelled and its badge no longer admits you.',
    ),
    TICKET,
    RECIPIENT,
    EVENT,
    EDITION,
    LANGUAGE,
  ],
  certificate_issued: [
    v(
      'verify_url',
      "The certificate's public verification page (required)",
      'https://convene.example/verify/C7M2QX',
      true,
    ),
    v('certificate_name', 'The name of the certificate', 'Certificate of attendance'),
    v('issued_at', 'When it was issued (UTC)', 'March 6, 2027'),
    RECIPIENT,
    EVENT,
    EDITION,
    LANGUAGE,
  ],
  event_invitation: [
    v(
      'sign_in_url',
      'The sign-in page; signing in with this e-mail accepts (required)',
      'https://convene.example/auth/sign-in?return_to=%2Fme',
      true,
    ),
    v('inviter', 'Who invites (name, else e-mail)', 'Marc Lima'),
    v('role', 'The role offered, in the language of the mail', 'staff'),
    v('expires_at', 'Until when the invitation can be accepted (UTC)', 'December 11, 2027'),
    v('email', 'The invited e-mail address', 'ana@example.com'),
    EVENT,
    LANGUAGE,
  ],
};

interface Chrome {
  fallback: string;
  footer: string;
  /** Role names as invitations show them. */
  roles: Record<'owner' | 'admin' | 'staff', string>;
}

const CHROME: Record<Language, Chrome> = {
  en: {
    fallback: 'If the button does not work, copy this link into your browser:',
    footer:
      'You receive this message because of {{ event_name }} on Convene. If you did not expect it, you can ignore it.',
    roles: { owner: 'owner', admin: 'administrator', staff: 'staff' },
  },
  'pt-BR': {
    fallback: 'Se o botão não funcionar, copie este link no seu navegador:',
    footer:
      'Você recebe esta mensagem por causa de {{ event_name }} no Convene. Se não a esperava, pode ignorá-la.',
    roles: { owner: 'proprietário', admin: 'administrador', staff: 'equipe' },
  },
  es: {
    fallback: 'Si el botón no funciona, copia este enlace en tu navegador:',
    footer: 'Recibes este mensaje por {{ event_name }} en Convene. Si no lo esperabas, puedes ignorarlo.',
    roles: { owner: 'propietario', admin: 'administrador', staff: 'personal' },
  },
};

/** A role's name in a language, for the invitation's `role` variable. */
export function roleName(role: 'owner' | 'admin' | 'staff', language: Language): string {
  return CHROME[language].roles[role];
}

interface Words {
  subject: string;
  heading: string;
  intro: string;
  details?: Array<readonly [string, string, string?]>;
  button: string;
  outro: string;
}

type Copy = Record<EventMailKind, Words>;

const en: Copy = {
  signature_request: {
    subject: '{{ requester }} asks for your signature: {{ edition_name }}',
    heading: 'Your signature is requested',
    intro:
      'Hello {{ recipient_name }}, {{ requester }} asks you to sign the certificates of {{ edition_name }} ({{ event_name }}).',
    details: [['Until', '{{ deadline }}', 'deadline']],
    button: 'Review and sign',
    outro: 'You can also decline on the same page. The link is personal: do not forward it.',
  },
  registration_confirmed: {
    subject: 'You are registered: {{ edition_name }}',
    heading: 'Your registration is confirmed',
    intro: 'Hello {{ recipient_name }}, your place at {{ edition_name }} ({{ event_name }}) is confirmed.',
    details: [
      ['When', '{{ dates }}', 'dates'],
      ['Where', '{{ venue }}', 'venue'],
      ['Ticket', '{{ ticket_name }}'],
      ['Paid', '{{ amount }}', 'amount'],
      ['Payment reference', '{{ payment_reference }}', 'payment_reference'],
    ],
    button: 'Open your badge',
    outro:
      'Show the QR code above, or your badge page, at the door. The calendar file attached adds the edition to your calendar.',
  },
  refund_issued: {
    subject: 'Refund issued: {{ edition_name }}',
    heading: 'Your refund is on its way',
    intro:
      'Hello {{ recipient_name }}, {{ amount }} was refunded for your ticket to {{ edition_name }} ({{ event_name }}).',
    details: [
      ['Ticket', '{{ ticket_name }}'],
      ['Reason', '{{ reason }}', 'reason'],
      ['Your ticket', '{{ ticket_status }}', 'ticket_status'],
    ],
    button: '',
    outro: 'The money goes back to the card or account you paid with; your bank decides when it shows.',
  },
  certificate_issued: {
    subject: 'Your certificate: {{ certificate_name }}',
    heading: 'Your certificate is ready',
    intro:
      'Hello {{ recipient_name }}, your certificate “{{ certificate_name }}” for {{ edition_name }} ({{ event_name }}) was issued on {{ issued_at }}. The PDF is attached.',
    button: 'Verify the certificate',
    outro: 'Anyone can check that it is genuine on its verification page.',
  },
  event_invitation: {
    subject: '{{ inviter }} invited you to {{ event_name }}',
    heading: 'You are invited to {{ event_name }}',
    intro: '{{ inviter }} invited you ({{ email }}) to join {{ event_name }} as {{ role }}.',
    details: [['Accept before', '{{ expires_at }}', 'expires_at']],
    button: 'Sign in to accept',
    outro: 'Sign in with this e-mail address and the invitation becomes your role on the event.',
  },
};

const ptBR: Copy = {
  signature_request: {
    subject: '{{ requester }} pede sua assinatura: {{ edition_name }}',
    heading: 'Sua assinatura foi solicitada',
    intro:
      'Olá, {{ recipient_name }}. {{ requester }} pede que você assine os certificados de {{ edition_name }} ({{ event_name }}).',
    details: [['Até', '{{ deadline }}', 'deadline']],
    button: 'Revisar e assinar',
    outro: 'Na mesma página você também pode recusar. O link é pessoal: não o encaminhe.',
  },
  registration_confirmed: {
    subject: 'Inscrição confirmada: {{ edition_name }}',
    heading: 'Sua inscrição está confirmada',
    intro: 'Olá, {{ recipient_name }}. Sua vaga em {{ edition_name }} ({{ event_name }}) está confirmada.',
    details: [
      ['Quando', '{{ dates }}', 'dates'],
      ['Onde', '{{ venue }}', 'venue'],
      ['Ingresso', '{{ ticket_name }}'],
      ['Pago', '{{ amount }}', 'amount'],
      ['Referência do pagamento', '{{ payment_reference }}', 'payment_reference'],
    ],
    button: 'Abrir seu crachá',
    outro:
      'Mostre o QR code acima, ou a página do seu crachá, na entrada. O arquivo de calendário anexo adiciona a edição à sua agenda.',
  },
  refund_issued: {
    subject: 'Reembolso emitido: {{ edition_name }}',
    heading: 'Seu reembolso está a caminho',
    intro:
      'Olá, {{ recipient_name }}. {{ amount }} foi reembolsado pelo seu ingresso para {{ edition_name }} ({{ event_name }}).',
    details: [
      ['Ingresso', '{{ ticket_name }}'],
      ['Motivo', '{{ reason }}', 'reason'],
      ['Seu ingresso', '{{ ticket_status }}', 'ticket_status'],
    ],
    button: '',
    outro:
      'O dinheiro volta para o cartão ou a conta usada no pagamento; o seu banco decide quando ele aparece.',
  },
  certificate_issued: {
    subject: 'Seu certificado: {{ certificate_name }}',
    heading: 'Seu certificado está pronto',
    intro:
      'Olá, {{ recipient_name }}. Seu certificado “{{ certificate_name }}” de {{ edition_name }} ({{ event_name }}) foi emitido em {{ issued_at }}. O PDF está anexo.',
    button: 'Verificar o certificado',
    outro: 'Qualquer pessoa pode conferir a autenticidade na página de verificação.',
  },
  event_invitation: {
    subject: '{{ inviter }} convidou você para {{ event_name }}',
    heading: 'Você foi convidado para {{ event_name }}',
    intro: '{{ inviter }} convidou você ({{ email }}) para participar de {{ event_name }} como {{ role }}.',
    details: [['Aceite até', '{{ expires_at }}', 'expires_at']],
    button: 'Entrar para aceitar',
    outro: 'Entre com este endereço de e-mail e o convite se torna o seu papel no evento.',
  },
};

const es: Copy = {
  signature_request: {
    subject: '{{ requester }} solicita tu firma: {{ edition_name }}',
    heading: 'Se solicita tu firma',
    intro:
      'Hola, {{ recipient_name }}. {{ requester }} te pide que firmes los certificados de {{ edition_name }} ({{ event_name }}).',
    details: [['Hasta', '{{ deadline }}', 'deadline']],
    button: 'Revisar y firmar',
    outro: 'En la misma página también puedes rechazar. El enlace es personal: no lo reenvíes.',
  },
  registration_confirmed: {
    subject: 'Inscripción confirmada: {{ edition_name }}',
    heading: 'Tu inscripción está confirmada',
    intro: 'Hola, {{ recipient_name }}. Tu lugar en {{ edition_name }} ({{ event_name }}) está confirmado.',
    details: [
      ['Cuándo', '{{ dates }}', 'dates'],
      ['Dónde', '{{ venue }}', 'venue'],
      ['Entrada', '{{ ticket_name }}'],
      ['Pagado', '{{ amount }}', 'amount'],
      ['Referencia del pago', '{{ payment_reference }}', 'payment_reference'],
    ],
    button: 'Abrir tu credencial',
    outro:
      'Muestra el código QR de arriba, o la página de tu credencial, en la entrada. El archivo de calendario adjunto añade la edición a tu agenda.',
  },
  refund_issued: {
    subject: 'Reembolso emitido: {{ edition_name }}',
    heading: 'Tu reembolso está en camino',
    intro:
      'Hola, {{ recipient_name }}. Se reembolsaron {{ amount }} por tu entrada a {{ edition_name }} ({{ event_name }}).',
    details: [
      ['Entrada', '{{ ticket_name }}'],
      ['Motivo', '{{ reason }}', 'reason'],
      ['Tu entrada', '{{ ticket_status }}', 'ticket_status'],
    ],
    button: '',
    outro: 'El dinero vuelve a la tarjeta o cuenta con la que pagaste; tu banco decide cuándo aparece.',
  },
  certificate_issued: {
    subject: 'Tu certificado: {{ certificate_name }}',
    heading: 'Tu certificado está listo',
    intro:
      'Hola, {{ recipient_name }}. Tu certificado «{{ certificate_name }}» de {{ edition_name }} ({{ event_name }}) se emitió el {{ issued_at }}. El PDF va adjunto.',
    button: 'Verificar el certificado',
    outro: 'Cualquiera puede comprobar que es auténtico en su página de verificación.',
  },
  event_invitation: {
    subject: '{{ inviter }} te invitó a {{ event_name }}',
    heading: 'Te invitaron a {{ event_name }}',
    intro: '{{ inviter }} te invitó ({{ email }}) a participar en {{ event_name }} como {{ role }}.',
    details: [['Acepta antes del', '{{ expires_at }}', 'expires_at']],
    button: 'Inicia sesión para aceptar',
    outro: 'Inicia sesión con esta dirección de correo y la invitación se convierte en tu rol en el evento.',
  },
};

const COPY: Record<Language, Copy> = { en, 'pt-BR': ptBR, es };

/** The kind's link variable: the button's target (none for a refund). */
function linkOf(kind: EventMailKind): string | undefined {
  return MAIL_VARIABLES[kind].find((variable) => variable.required && variable.name.endsWith('_url'))?.name;
}

function build(kind: EventMailKind, language: Language): DefaultTemplate {
  const words = COPY[language][kind];
  const chrome = CHROME[language];
  const link = linkOf(kind);
  return {
    kind,
    subject: words.subject,
    variables: MAIL_VARIABLES[kind],
    body: mailLayout({
      lang: language,
      title: words.heading,
      preheader: words.intro,
      header: '{{ event_name }}',
      heading: words.heading,
      intro: words.intro,
      ...(words.details === undefined ? {} : { details: words.details }),
      ...(kind === 'registration_confirmed'
        ? { image: { src: `cid:${BADGE_QR_CID}`, alt: words.button, size: 200 } }
        : {}),
      ...(link === undefined
        ? {}
        : { button: { label: words.button, variable: link }, fallback: chrome.fallback }),
      outro: words.outro,
      footer: chrome.footer,
    }),
  };
}

const DEFAULTS = new Map<string, DefaultTemplate>();

/** The built-in template of a kind in a language (built once). */
export function defaultMail(kind: EventMailKind, language: Language): DefaultTemplate {
  const key = `${kind}:${language}`;
  let template = DEFAULTS.get(key);
  if (template === undefined) {
    template = build(kind, language);
    DEFAULTS.set(key, template);
  }
  return template;
}
