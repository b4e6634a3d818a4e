/**
 * What the events pages say, in each page language (contract 10). Dates are written by
 * `Intl.DateTimeFormat` in the same language, in UTC like every time the API gives.
 */
import type { Language } from '../../../kernel/pages/language.ts';

const en = {
  badgeTitle: 'Badge',
  badgeUnknownTitle: 'Badge not found',
  badgeUnknown: 'This code is not a badge issued by Convene. Check that the whole code was scanned.',
  holder: 'Holder',
  edition: 'Edition',
  event: 'Event',
  dates: 'Dates',
  ticket: 'Ticket',
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

export function formatDay(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

export function formatSpan(from: Date, to: Date, language: Language): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).formatRange(from, to);
}
