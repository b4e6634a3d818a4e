/** The words the mails' variables carry beyond the templates: what happened to a refunded ticket. */
import type { Language } from '../../../kernel/pages/language.ts';
import type { RegistrationStatus } from '../registrations/index.ts';

const TICKET_STATUS: Record<Language, Partial<Record<RegistrationStatus, string>>> = {
  en: {
    refunded: 'Your registration is refunded; its badge no longer admits you.',
    cancelled: 'Your registration is cancelled; its badge no longer admits you.',
    expired: 'Your reservation had ended before the payment arrived, so no seat was kept.',
  },
  'pt-BR': {
    refunded: 'Sua inscrição foi reembolsada; o crachá não dá mais acesso.',
    cancelled: 'Sua inscrição foi cancelada; o crachá não dá mais acesso.',
    expired: 'Sua reserva terminou antes de o pagamento chegar, por isso nenhuma vaga foi mantida.',
  },
  es: {
    refunded: 'Tu inscripción fue reembolsada; su credencial ya no da acceso.',
    cancelled: 'Tu inscripción fue cancelada; su credencial ya no da acceso.',
    expired: 'Tu reserva terminó antes de que llegara el pago, así que no se mantuvo ningún lugar.',
  },
};

export function ticketStatusText(status: RegistrationStatus, language: Language): string {
  return TICKET_STATUS[language][status] ?? '';
}
