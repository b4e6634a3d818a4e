/** What a person's own page (`/me`) says, in each page language (docs/reference/pages.md). */
import type { Language } from '../../../kernel/pages/language.ts';
import type { RegistrationStatus } from '../registrations/index.ts';

const en = {
  title: 'My page',
  signedInAs: 'Signed in as',
  signedOutTitle: 'Sign in to see your page',
  signedOut: 'Your registrations, badges and certificates are shown here once you sign in.',
  signIn: 'Sign in',
  tokenHint: 'You are using an access token: there is no browser session to sign out of.',
  registrations: 'Registrations',
  registrationsNone: 'You have no registrations yet.',
  registered: 'Registered on',
  status: 'Status',
  statuses: {
    pending_payment: 'Awaiting payment',
    confirmed: 'Confirmed',
    cancelled: 'Cancelled',
    expired: 'Expired: the seat was released',
    refunded: 'Refunded',
  } satisfies Record<RegistrationStatus, string> as Record<RegistrationStatus, string>,
  heldUntil: 'Seat held until',
  pay: 'Pay with Mercado Pago',
  payment: 'See the payment',
  openBadge: 'Open the badge',
  badges: 'Badges',
  badgesNone: 'You have no active badges.',
  certificates: 'Certificates',
  certificatesNone: 'You have no certificates yet.',
  pdf: 'Download the PDF',
  credential: 'Download the verifiable credential',
  verify: 'Open the verification page',
  /** Under a list cut at the page's limit: how many of how many are shown. */
  newest: (shown: number, total: number) => `The newest ${shown} of ${total} are shown.`,
};

export type MeMessages = typeof en;

const ptBR: MeMessages = {
  title: 'Minha página',
  signedInAs: 'Você entrou como',
  signedOutTitle: 'Entre para ver sua página',
  signedOut: 'Suas inscrições, crachás e certificados aparecem aqui depois que você entrar.',
  signIn: 'Entrar',
  tokenHint: 'Você está usando um token de acesso: não há sessão do navegador para encerrar.',
  registrations: 'Inscrições',
  registrationsNone: 'Você ainda não tem inscrições.',
  registered: 'Inscrição em',
  status: 'Situação',
  statuses: {
    pending_payment: 'Aguardando pagamento',
    confirmed: 'Confirmada',
    cancelled: 'Cancelada',
    expired: 'Expirada: a vaga foi liberada',
    refunded: 'Reembolsada',
  },
  heldUntil: 'Vaga reservada até',
  pay: 'Pagar com Mercado Pago',
  payment: 'Ver o pagamento',
  openBadge: 'Abrir o crachá',
  badges: 'Crachás',
  badgesNone: 'Você não tem crachás ativos.',
  certificates: 'Certificados',
  certificatesNone: 'Você ainda não tem certificados.',
  pdf: 'Baixar o PDF',
  credential: 'Baixar a credencial verificável',
  verify: 'Abrir a página de verificação',
  newest: (shown, total) => `Aparecem os ${shown} mais recentes de ${total}.`,
};

const es: MeMessages = {
  title: 'Mi página',
  signedInAs: 'Sesión iniciada como',
  signedOutTitle: 'Inicie sesión para ver su página',
  signedOut: 'Sus inscripciones, credenciales y certificados aparecen aquí cuando inicia sesión.',
  signIn: 'Iniciar sesión',
  tokenHint: 'Está usando un token de acceso: no hay sesión del navegador que cerrar.',
  registrations: 'Inscripciones',
  registrationsNone: 'Todavía no tiene inscripciones.',
  registered: 'Inscripción el',
  status: 'Estado',
  statuses: {
    pending_payment: 'Pendiente de pago',
    confirmed: 'Confirmada',
    cancelled: 'Cancelada',
    expired: 'Vencida: el lugar fue liberado',
    refunded: 'Reembolsada',
  },
  heldUntil: 'Lugar reservado hasta',
  pay: 'Pagar con Mercado Pago',
  payment: 'Ver el pago',
  openBadge: 'Abrir la credencial',
  badges: 'Credenciales',
  badgesNone: 'No tiene credenciales activas.',
  certificates: 'Certificados',
  certificatesNone: 'Todavía no tiene certificados.',
  pdf: 'Descargar el PDF',
  credential: 'Descargar la credencial verificable',
  verify: 'Abrir la página de verificación',
  newest: (shown, total) => `Se muestran los ${shown} más recientes de ${total}.`,
};

export const ME_MESSAGES: Record<Language, MeMessages> = { en, 'pt-BR': ptBR, es };
