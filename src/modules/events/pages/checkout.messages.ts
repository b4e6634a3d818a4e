/** What the payer's return page (`/checkout/{intent_id}`) says, in each page language (docs/reference/pages.md). */
import type { Language } from '../../../kernel/pages/language.ts';

const en = {
  title: 'Your payment',
  unknownTitle: 'Payment not found',
  unknown: 'There is no ticket payment with this address. Check that you opened the whole link.',
  amount: 'Amount',
  pending: 'Payment pending',
  pendingText: 'Mercado Pago has not confirmed your payment yet. This page updates by itself when it does.',
  heldUntil: 'Your seat is held until',
  paid: 'Paid',
  paidText: 'Your payment is confirmed and so is your registration.',
  badge: 'Open your badge',
  failed: 'Payment not completed',
  failedText: 'The payment was not approved or was cancelled, and nothing was charged.',
  retryText: (until: string) =>
    `Your seat stays held until ${until}. You can try again with a new payment link for the same seat.`,
  retry: 'Try again with a new payment link',
  expiredText: 'Your seat is no longer held: to attend, register again from the event’s page.',
  pay: 'Pay with Mercado Pago',
  payText: 'Not paid yet?',
  reference: 'Payment reference',
  referenceHint: 'Quote the payment reference if you contact the organizers about this payment.',
  retryFailedTitle: 'No new payment link yet',
  retryFailed:
    'A new payment link could not be made just now, and nothing was charged. Try again in a moment.',
  back: 'Back to your payment',
  newer: 'A newer payment was started for this seat.',
  newerLink: 'See that payment',
  refunded: 'Refunded',
  refundedText: 'This payment was refunded.',
  soldOutText:
    'The payment arrived after your seat was released and the ticket had sold out, so it was refunded in full.',
  updated: 'The payment status changed.',
  noscript: 'Reload this page to see the latest status.',
};

export type CheckoutMessages = typeof en;

const ptBR: CheckoutMessages = {
  title: 'Seu pagamento',
  unknownTitle: 'Pagamento não encontrado',
  unknown: 'Não há pagamento de ingresso neste endereço. Verifique se abriu o link inteiro.',
  amount: 'Valor',
  pending: 'Pagamento pendente',
  pendingText:
    'O Mercado Pago ainda não confirmou seu pagamento. Esta página se atualiza sozinha quando confirmar.',
  heldUntil: 'Sua vaga está reservada até',
  paid: 'Pago',
  paidText: 'Seu pagamento foi confirmado, e sua inscrição também.',
  badge: 'Abrir seu crachá',
  failed: 'Pagamento não concluído',
  failedText: 'O pagamento não foi aprovado ou foi cancelado, e nada foi cobrado.',
  retryText: (until) =>
    `Sua vaga continua reservada até ${until}. Você pode tentar de novo com um novo link de pagamento para a mesma vaga.`,
  retry: 'Tentar de novo com um novo link de pagamento',
  expiredText:
    'Sua vaga não está mais reservada: para participar, inscreva-se de novo pela página do evento.',
  pay: 'Pagar com Mercado Pago',
  payText: 'Ainda não pagou?',
  reference: 'Referência do pagamento',
  referenceHint: 'Informe a referência do pagamento se entrar em contato com a organização sobre ele.',
  retryFailedTitle: 'Ainda sem novo link de pagamento',
  retryFailed:
    'Não foi possível criar um novo link de pagamento agora, e nada foi cobrado. Tente de novo em instantes.',
  back: 'Voltar ao seu pagamento',
  newer: 'Um pagamento mais recente foi iniciado para esta vaga.',
  newerLink: 'Ver esse pagamento',
  refunded: 'Reembolsado',
  refundedText: 'Este pagamento foi reembolsado.',
  soldOutText:
    'O pagamento chegou depois que sua vaga foi liberada e o ingresso esgotou, então foi reembolsado integralmente.',
  updated: 'A situação do pagamento mudou.',
  noscript: 'Recarregue esta página para ver a situação mais recente.',
};

const es: CheckoutMessages = {
  title: 'Su pago',
  unknownTitle: 'Pago no encontrado',
  unknown: 'No hay ningún pago de entrada en esta dirección. Compruebe que abrió el enlace completo.',
  amount: 'Importe',
  pending: 'Pago pendiente',
  pendingText: 'Mercado Pago aún no ha confirmado su pago. Esta página se actualiza sola cuando lo haga.',
  heldUntil: 'Su plaza está reservada hasta',
  paid: 'Pagado',
  paidText: 'Su pago está confirmado, y también su inscripción.',
  badge: 'Abrir su credencial',
  failed: 'Pago no completado',
  failedText: 'El pago no fue aprobado o fue cancelado, y no se cobró nada.',
  retryText: (until) =>
    `Su plaza sigue reservada hasta ${until}. Puede intentarlo de nuevo con un nuevo enlace de pago para la misma plaza.`,
  retry: 'Intentar de nuevo con un nuevo enlace de pago',
  expiredText: 'Su plaza ya no está reservada: para asistir, inscríbase de nuevo desde la página del evento.',
  pay: 'Pagar con Mercado Pago',
  payText: '¿Aún no ha pagado?',
  reference: 'Referencia del pago',
  referenceHint: 'Indique la referencia del pago si contacta con la organización sobre este pago.',
  retryFailedTitle: 'Aún no hay un nuevo enlace de pago',
  retryFailed:
    'No se pudo crear un nuevo enlace de pago ahora, y no se cobró nada. Inténtelo de nuevo en un momento.',
  back: 'Volver a su pago',
  newer: 'Se inició un pago más reciente para esta plaza.',
  newerLink: 'Ver ese pago',
  refunded: 'Reembolsado',
  refundedText: 'Este pago fue reembolsado.',
  soldOutText:
    'El pago llegó después de que se liberara su plaza y las entradas se agotaran, así que se reembolsó íntegramente.',
  updated: 'El estado del pago cambió.',
  noscript: 'Recargue esta página para ver el estado más reciente.',
};

export const CHECKOUT_MESSAGES: Record<Language, CheckoutMessages> = { en, 'pt-BR': ptBR, es };
