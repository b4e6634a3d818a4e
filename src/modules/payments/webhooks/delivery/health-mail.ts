/**
 * The mail a wallet's owner gets about one of its webhook endpoints (docs/reference/webhooks.md,
 * "Health mails"; kind `webhook_endpoint_health`): queued by the worker's statements that pause or
 * disable the endpoint or fail a delivery for good (delivery-queue.repository.ts), rendered here when
 * it is sent. It names the endpoint (name, URL), why (paused until when, disabled by a 410, a delivery
 * out of retries), its last few errors, and links to the console's webhook screen at the endpoint's
 * deliveries. Built-in text in `en`, `pt-BR` and `es`, in the layout of every built-in mail
 * (kernel/mail-templates/layout.ts: accessible, no external images); not overridable, since it
 * belongs to no event.
 */
import type { Database } from '../../../../kernel/db/client.ts';
import { mailLayout } from '../../../../kernel/mail-templates/layout.ts';
import { type TemplateVariable, templateVariable } from '../../../../kernel/mail-templates/liquid.ts';
import type { Language } from '../../../../kernel/pages/language.ts';
import { MailCannotBeWritten, type MailDraft, type MailRenderer } from '../../../mail/index.ts';
import { findEndpointForMail } from '../endpoints/index.ts';
import { listRecentErrors, type RecentError } from './deliveries.repository.ts';
import { HEALTH_MAIL_KIND } from './delivery-queue.repository.ts';

export { HEALTH_MAIL_KIND };

/** Errors the mail lists at most. */
const ERRORS_SHOWN = 3;
/** Characters of an answer's body shown beside its status. */
const BODY_SHOWN = 120;

type Reason = 'paused' | 'gone' | 'retries_exhausted';

const v = templateVariable;

const VARIABLES: TemplateVariable[] = [
  v(
    'deliveries_url',
    "The console's webhook screen at the endpoint's deliveries (required)",
    'https://convene.example/console/wallets/0193/webhooks#deliveries-0194',
    true,
  ),
  v('endpoint_name', 'The name of the endpoint', 'Order service'),
  v('endpoint_url', 'Where it receives', 'https://orders.example.com/hooks/convene'),
  v('headline', 'What happened, in a few words', 'Your webhook endpoint is paused'),
  v('explanation', 'What happened and what follows', 'It failed 10 times in a row …'),
  v('error_1', 'The newest error', 'November 22, 2026 at 10:00 AM UTC: HTTP 503 maintenance'),
  v('error_2', 'The one before', ''),
  v('error_3', 'The one before that', ''),
];

interface Words {
  header: string;
  headline: Record<Reason, string>;
  explanation: Record<Reason, (until: string) => string>;
  endpoint: string;
  url: string;
  errors: string;
  button: string;
  fallback: string;
  outro: string;
  footer: string;
  http: string;
  none: string;
}

const WORDS: Record<Language, Words> = {
  en: {
    header: 'Convene webhooks',
    headline: {
      paused: 'Your webhook endpoint is paused',
      gone: 'Your webhook endpoint was disabled',
      retries_exhausted: 'A webhook delivery ran out of retries',
    },
    explanation: {
      paused: (until) =>
        `It failed too many times in a row, so deliveries to it wait until ${until}; then one attempt probes it, and its deliveries resume once it answers. Nothing is lost meanwhile.`,
      gone: () =>
        'It answered 410 Gone, which asks to stop sending. Nothing more is sent to it until you enable it again; its waiting deliveries end failed, and you can retry or replay them.',
      retries_exhausted: () =>
        'A delivery to it failed on every attempt of the retry schedule and ended failed. You can retry it, or replay the failed deliveries once the endpoint answers again.',
    },
    endpoint: 'Endpoint',
    url: 'URL',
    errors: 'Last errors',
    button: 'See its deliveries',
    fallback: 'If the button does not work, copy this link into your browser:',
    outro: 'You receive this at most once a day per endpoint.',
    footer: 'You receive this message because you own this wallet on Convene.',
    http: 'HTTP',
    none: 'no answer',
  },
  'pt-BR': {
    header: 'Webhooks do Convene',
    headline: {
      paused: 'Seu endpoint de webhook está pausado',
      gone: 'Seu endpoint de webhook foi desativado',
      retries_exhausted: 'Uma entrega de webhook esgotou as tentativas',
    },
    explanation: {
      paused: (until) =>
        `Ele falhou vezes demais seguidas, então as entregas esperam até ${until}; depois uma tentativa o testa, e as entregas voltam quando ele responder. Nada se perde enquanto isso.`,
      gone: () =>
        'Ele respondeu 410 Gone, que pede para parar de enviar. Nada mais é enviado até você reativá-lo; as entregas pendentes terminam com falha, e você pode tentá-las de novo ou reenviá-las.',
      retries_exhausted: () =>
        'Uma entrega para ele falhou em todas as tentativas do calendário e terminou com falha. Você pode tentá-la de novo, ou reenviar as entregas com falha quando o endpoint voltar a responder.',
    },
    endpoint: 'Endpoint',
    url: 'URL',
    errors: 'Últimos erros',
    button: 'Ver as entregas',
    fallback: 'Se o botão não funcionar, copie este link no seu navegador:',
    outro: 'Você recebe isto no máximo uma vez por dia por endpoint.',
    footer: 'Você recebe esta mensagem porque é dono desta carteira no Convene.',
    http: 'HTTP',
    none: 'sem resposta',
  },
  es: {
    header: 'Webhooks de Convene',
    headline: {
      paused: 'Tu endpoint de webhook está en pausa',
      gone: 'Tu endpoint de webhook fue desactivado',
      retries_exhausted: 'Una entrega de webhook agotó sus reintentos',
    },
    explanation: {
      paused: (until) =>
        `Falló demasiadas veces seguidas, así que las entregas esperan hasta ${until}; luego un intento lo prueba, y las entregas se reanudan cuando responda. No se pierde nada mientras tanto.`,
      gone: () =>
        'Respondió 410 Gone, que pide dejar de enviar. No se le envía nada más hasta que lo actives de nuevo; sus entregas pendientes terminan fallidas, y puedes reintentarlas o reenviarlas.',
      retries_exhausted: () =>
        'Una entrega falló en todos los intentos del calendario y terminó fallida. Puedes reintentarla, o reenviar las entregas fallidas cuando el endpoint vuelva a responder.',
    },
    endpoint: 'Endpoint',
    url: 'URL',
    errors: 'Últimos errores',
    button: 'Ver sus entregas',
    fallback: 'Si el botón no funciona, copia este enlace en tu navegador:',
    outro: 'Recibes esto como máximo una vez al día por endpoint.',
    footer: 'Recibes este mensaje porque eres propietario de esta billetera en Convene.',
    http: 'HTTP',
    none: 'sin respuesta',
  },
};

const TEMPLATES = new Map<Language, string>();

/** The HTML of the mail in `language` (Liquid source, built once). */
function bodyOf(language: Language): string {
  let body = TEMPLATES.get(language);
  if (body === undefined) {
    const words = WORDS[language];
    body = mailLayout({
      lang: language,
      title: '{{ headline }}',
      preheader: '{{ headline }}: {{ endpoint_name }}',
      header: words.header,
      heading: '{{ headline }}',
      intro: '{{ explanation }}',
      details: [
        [words.endpoint, '{{ endpoint_name }}'],
        [words.url, '{{ endpoint_url }}'],
        [`${words.errors} (1)`, '{{ error_1 }}', 'error_1'],
        [`${words.errors} (2)`, '{{ error_2 }}', 'error_2'],
        [`${words.errors} (3)`, '{{ error_3 }}', 'error_3'],
      ],
      button: { label: words.button, variable: 'deliveries_url' },
      fallback: words.fallback,
      outro: words.outro,
      footer: words.footer,
    });
    TEMPLATES.set(language, body);
  }
  return body;
}

function moment(date: Date, language: Language): string {
  const formatted = new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date);
  return `${formatted} UTC`;
}

function errorLine(error: RecentError, words: Words, language: Language): string {
  const body = error.response_body?.replace(/\s+/g, ' ').trim().slice(0, BODY_SHOWN);
  const what =
    error.response_status === null
      ? (error.error ?? words.none)
      : `${words.http} ${error.response_status}${body ? ` ${body}` : ''}`;
  return `${moment(error.at, language)}: ${what}`;
}

function reasonOf(value: unknown): Reason {
  if (value === 'paused' || value === 'gone' || value === 'retries_exhausted') return value;
  throw new MailCannotBeWritten('the mail names no reason');
}

/** The renderer of `webhook_endpoint_health`, registered with the mail service by the payments module. */
export function healthMailRenderer(db: Database, publicBaseUrl: string): MailRenderer {
  return async (mail): Promise<MailDraft> => {
    const endpointId = mail.data.endpoint_id;
    if (typeof endpointId !== 'string') throw new MailCannotBeWritten("the mail's endpoint_id is missing");
    const endpoint = await findEndpointForMail(db, endpointId);
    if (endpoint === undefined) throw new MailCannotBeWritten('The endpoint of this mail no longer exists');
    const reason = reasonOf(mail.data.reason);
    const words = WORDS[mail.language];
    const pausedUntil =
      typeof mail.data.paused_until === 'string' ? new Date(mail.data.paused_until) : endpoint.paused_until;
    const errors = await listRecentErrors(db, endpoint.id, ERRORS_SHOWN);
    const link = new URL(`/console/wallets/${endpoint.wallet_id}/webhooks`, publicBaseUrl);
    link.hash = `deliveries-${endpoint.id}`;
    const values: Record<string, string> = {
      deliveries_url: link.toString(),
      endpoint_name: endpoint.name,
      endpoint_url: endpoint.url,
      headline: words.headline[reason],
      explanation: words.explanation[reason](pausedUntil === null ? '' : moment(pausedUntil, mail.language)),
    };
    errors.forEach((error, index) => {
      values[`error_${index + 1}`] = errorLine(error, words, mail.language);
    });
    return {
      template: {
        kind: HEALTH_MAIL_KIND,
        variables: VARIABLES,
        subject: '{{ headline }}: {{ endpoint_name }}',
        body: bodyOf(mail.language),
      },
      values,
      attachments: [],
    };
  };
}
