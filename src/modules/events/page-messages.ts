/**
 * What the events pages say, in each page language (docs/reference/pages.md). Dates are written by
 * `Intl.DateTimeFormat` in the same language, in UTC like every time the API gives.
 */
import type { Language } from '../../kernel/pages/language.ts';

const en = {
  badgeTitle: 'Badge',
  badgeUnknownTitle: 'Badge not found',
  badgeUnknown: 'This code is not a badge issued by Convene. Check that the whole code was scanned.',
  holder: 'Holder',
  edition: 'Edition',
  event: 'Event',
  dates: 'Dates',
  ticket: 'Ticket',
  venue: 'Venue',
  qrLabel: "This badge's QR code",
  qrHint: 'Show this code at the door to be checked in.',
  staff: 'Staff',
  participant: 'Participant',
  valid: 'Valid badge',
  revoked: 'Revoked badge',
  ended: 'The edition has ended',
  reasons: {
    registration_cancelled: 'The registration was cancelled.',
    member_removed: 'The holder is no longer a member of the event team.',
    refunded: 'The ticket was refunded.',
  } as Record<string, string>,
  staffTitle: 'Staff check-in',
  staffSignIn: 'Event staff: sign in to check people in',
  checkIn: 'Check in',
  staffScript: {
    ok: 'Checked in.',
    already: 'Already checked in at',
    revoked: 'Not checked in: this badge is revoked.',
    wrongEdition: 'Not checked in: this badge is for another edition.',
    notAllowed: 'Not checked in: this badge does not give access here.',
    notOpen:
      'Not checked in: check-in is open from 24 hours before the edition starts until 24 hours after it ends.',
    unknown: 'Not checked in: the badge was not recognised.',
    signedOut: 'Your session has ended: sign in again (link below), then check in.',
    notStaff: 'You are not on the staff of this edition.',
    failed: 'That did not work. Check your connection and try again.',
    sending: 'Checking in…',
  },
  badgesTitle: 'Badges',
  badgesCurrent: 'Current and upcoming',
  badgesPast: 'Past',
  badgesNone: 'No badges.',
  badgesNonePast: 'No past badges.',
  verifyTitle: 'Certificate verification',
  verifyUnknownTitle: 'Certificate not found',
  verifyUnknown: 'No certificate has this verification code. Check that it was typed or scanned in full.',
  certificateValid: 'Valid certificate',
  certificateRevoked: 'Revoked certificate',
  certificate: 'Certificate',
  issued: 'Issued on',
  revokedOn: 'Revoked on',
  reason: 'Reason',
};

export type Messages = typeof en;

const ptBR: Messages = {
  badgeTitle: 'Crachá',
  badgeUnknownTitle: 'Crachá não encontrado',
  badgeUnknown: 'Este código não é um crachá emitido pelo Convene. Verifique se o código inteiro foi lido.',
  holder: 'Titular',
  edition: 'Edição',
  event: 'Evento',
  dates: 'Datas',
  ticket: 'Ingresso',
  venue: 'Local',
  qrLabel: 'Código QR deste crachá',
  qrHint: 'Mostre este código na entrada para fazer o check-in.',
  staff: 'Equipe',
  participant: 'Participante',
  valid: 'Crachá válido',
  revoked: 'Crachá revogado',
  ended: 'A edição já terminou',
  reasons: {
    registration_cancelled: 'A inscrição foi cancelada.',
    member_removed: 'O titular não faz mais parte da equipe do evento.',
    refunded: 'O ingresso foi reembolsado.',
  },
  staffTitle: 'Check-in pela equipe',
  staffSignIn: 'Equipe do evento: entre para fazer o check-in das pessoas',
  checkIn: 'Fazer check-in',
  staffScript: {
    ok: 'Check-in feito.',
    already: 'Check-in já feito em',
    revoked: 'Check-in não feito: este crachá foi revogado.',
    wrongEdition: 'Check-in não feito: este crachá é de outra edição.',
    notAllowed: 'Check-in não feito: este crachá não dá acesso aqui.',
    notOpen:
      'Check-in não feito: o check-in abre 24 horas antes do início da edição e fecha 24 horas depois do fim.',
    unknown: 'Check-in não feito: o crachá não foi reconhecido.',
    signedOut: 'Sua sessão terminou: entre de novo (link abaixo) e faça o check-in.',
    notStaff: 'Você não faz parte da equipe desta edição.',
    failed: 'Não deu certo. Verifique sua conexão e tente de novo.',
    sending: 'Fazendo check-in…',
  },
  badgesTitle: 'Crachás',
  badgesCurrent: 'Atuais e próximos',
  badgesPast: 'Anteriores',
  badgesNone: 'Nenhum crachá.',
  badgesNonePast: 'Nenhum crachá anterior.',
  verifyTitle: 'Verificação de certificado',
  verifyUnknownTitle: 'Certificado não encontrado',
  verifyUnknown:
    'Nenhum certificado tem este código de verificação. Verifique se foi digitado ou lido por inteiro.',
  certificateValid: 'Certificado válido',
  certificateRevoked: 'Certificado revogado',
  certificate: 'Certificado',
  issued: 'Emitido em',
  revokedOn: 'Revogado em',
  reason: 'Motivo',
};

const es: Messages = {
  badgeTitle: 'Credencial',
  badgeUnknownTitle: 'Credencial no encontrada',
  badgeUnknown:
    'Este código no es una credencial emitida por Convene. Compruebe que se leyó el código completo.',
  holder: 'Titular',
  edition: 'Edición',
  event: 'Evento',
  dates: 'Fechas',
  ticket: 'Entrada',
  venue: 'Lugar',
  qrLabel: 'Código QR de esta credencial',
  qrHint: 'Muestre este código en la entrada para registrar su llegada.',
  staff: 'Equipo',
  participant: 'Participante',
  valid: 'Credencial válida',
  revoked: 'Credencial revocada',
  ended: 'La edición ha terminado',
  reasons: {
    registration_cancelled: 'La inscripción fue cancelada.',
    member_removed: 'El titular ya no forma parte del equipo del evento.',
    refunded: 'La entrada fue reembolsada.',
  },
  staffTitle: 'Registro de entrada del equipo',
  staffSignIn: 'Equipo del evento: inicie sesión para registrar entradas',
  checkIn: 'Registrar entrada',
  staffScript: {
    ok: 'Entrada registrada.',
    already: 'La entrada ya se registró el',
    revoked: 'Entrada no registrada: esta credencial está revocada.',
    wrongEdition: 'Entrada no registrada: esta credencial es de otra edición.',
    notAllowed: 'Entrada no registrada: esta credencial no da acceso aquí.',
    notOpen:
      'Entrada no registrada: el registro abre 24 horas antes del inicio de la edición y cierra 24 horas después del final.',
    unknown: 'Entrada no registrada: no se reconoció la credencial.',
    signedOut: 'Su sesión terminó: inicie sesión de nuevo (enlace abajo) y registre la entrada.',
    notStaff: 'Usted no forma parte del equipo de esta edición.',
    failed: 'No funcionó. Compruebe su conexión e inténtelo de nuevo.',
    sending: 'Registrando…',
  },
  badgesTitle: 'Credenciales',
  badgesCurrent: 'Actuales y próximas',
  badgesPast: 'Anteriores',
  badgesNone: 'Ninguna credencial.',
  badgesNonePast: 'Ninguna credencial anterior.',
  verifyTitle: 'Verificación de certificado',
  verifyUnknownTitle: 'Certificado no encontrado',
  verifyUnknown:
    'Ningún certificado tiene este código de verificación. Compruebe que se escribió o leyó completo.',
  certificateValid: 'Certificado válido',
  certificateRevoked: 'Certificado revocado',
  certificate: 'Certificado',
  issued: 'Emitido el',
  revokedOn: 'Revocado el',
  reason: 'Motivo',
};

export const MESSAGES: Record<Language, Messages> = { en, 'pt-BR': ptBR, es };

/**
 * One `Intl` formatter per language and style, made once: making one costs far more than using
 * it, and the mails format dates while registrations go on (docs/mail.md, "Figures").
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(language: Language, withTime: boolean): Intl.DateTimeFormat {
  const key = `${language}:${withTime}`;
  let made = formatters.get(key);
  if (made === undefined) {
    made = new Intl.DateTimeFormat(language, {
      dateStyle: 'long',
      ...(withTime ? { timeStyle: 'short' } : {}),
      timeZone: 'UTC',
    });
    formatters.set(key, made);
  }
  return made;
}

export function formatDay(date: Date, language: Language): string {
  return formatter(language, false).format(date);
}

/** A moment to the minute, in UTC (said so), like every time the API gives. */
export function formatMoment(date: Date, language: Language): string {
  return `${formatter(language, true).format(date)} UTC`;
}

export function formatSpan(from: Date, to: Date, language: Language): string {
  return formatter(language, false).formatRange(from, to);
}

/** `5050 BRL` → `R$ 50,50` in pt-BR: the currency's own minor digits, as `Intl` knows them. */
export function formatMoney(amountCents: number, currency: string, language: Language): string {
  const format = new Intl.NumberFormat(language, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountCents / 10 ** digits);
}
