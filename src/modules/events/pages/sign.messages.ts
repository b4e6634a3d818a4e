/**
 * What the signing page (`/sign?token=`) says, in each page language (docs/reference/pages.md). The strings
 * under `script` are handed to the page's script through `data-` attributes, so it speaks the
 * page's language without any text of its own.
 */
import type { Language } from '../../../kernel/pages/language.ts';

const en = {
  title: 'Signature request',
  intro: (requester: string, event: string) =>
    `${requester}, for ${event}, asks for your signature on the certificates of this edition.`,
  signatory: 'Signatory',
  expires: 'Link valid until',
  yourSignature: 'Your signature',
  drawHelp: 'Draw your signature in the box with a mouse, a finger or a pen, or upload a PNG image instead.',
  padLabel: 'Signature drawing area',
  undo: 'Undo',
  clear: 'Clear',
  upload: 'Or upload a small PNG image (at most 256 KB)',
  uploadHelp: 'A picture of your signature on a light or transparent background.',
  previewAlt: 'The uploaded signature',
  sign: 'Sign',
  declineTitle: 'Decline',
  declineHelp: 'If you should not sign for this edition, tell the organizers why (optional).',
  reason: 'Reason',
  decline: 'Decline to sign',
  noscript: 'Signing needs JavaScript. Turn it on for this page and reload.',
  script: {
    empty: 'Draw your signature or choose a PNG image first.',
    tooLarge: 'This image is too large: it must be at most 256 KB. Choose a smaller PNG image.',
    notPng: 'The file is not a PNG image.',
    failed: 'That did not work. Check your connection and try again.',
    sending: 'Sending…',
    drawn: 'Signature drawn.',
    cleared: 'Drawing cleared.',
  },
  unknownTitle: 'Link not valid',
  unknown:
    'This signature link is not valid. Check that you opened the whole link from the message you received.',
  expiredTitle: 'Link expired',
  expired: 'This signature link has expired. Ask the organizers for a new one if you still want to sign.',
  completedTitle: 'Signed',
  completed: (date: string) =>
    `You signed on ${date}. Thank you: your signature will appear on the certificates.`,
  deniedTitle: 'Declined',
  denied: (date: string) => `You declined to sign on ${date}.`,
  yourReason: 'Your reason',
  cancelledTitle: 'Request cancelled',
  cancelled: 'The organizers cancelled this request. There is nothing to sign.',
};

export type SignMessages = typeof en;

const ptBR: SignMessages = {
  title: 'Pedido de assinatura',
  intro: (requester, event) =>
    `${requester}, em nome de ${event}, pede a sua assinatura nos certificados desta edição.`,
  signatory: 'Signatário',
  expires: 'Link válido até',
  yourSignature: 'Sua assinatura',
  drawHelp: 'Desenhe sua assinatura no quadro com o mouse, o dedo ou uma caneta, ou envie uma imagem PNG.',
  padLabel: 'Área para desenhar a assinatura',
  undo: 'Desfazer',
  clear: 'Limpar',
  upload: 'Ou envie uma imagem PNG pequena (até 256 KB)',
  uploadHelp: 'Uma foto da sua assinatura em fundo claro ou transparente.',
  previewAlt: 'A assinatura enviada',
  sign: 'Assinar',
  declineTitle: 'Recusar',
  declineHelp: 'Se você não deve assinar por esta edição, diga aos organizadores o motivo (opcional).',
  reason: 'Motivo',
  decline: 'Recusar assinatura',
  noscript: 'Assinar requer JavaScript. Ative-o para esta página e recarregue.',
  script: {
    empty: 'Desenhe sua assinatura ou escolha uma imagem PNG primeiro.',
    tooLarge: 'Esta imagem é grande demais: o máximo é 256 KB. Escolha uma imagem PNG menor.',
    notPng: 'O arquivo não é uma imagem PNG.',
    failed: 'Não deu certo. Verifique sua conexão e tente de novo.',
    sending: 'Enviando…',
    drawn: 'Assinatura desenhada.',
    cleared: 'Desenho apagado.',
  },
  unknownTitle: 'Link inválido',
  unknown: 'Este link de assinatura não é válido. Verifique se abriu o link inteiro da mensagem que recebeu.',
  expiredTitle: 'Link expirado',
  expired: 'Este link de assinatura expirou. Peça um novo aos organizadores se ainda quiser assinar.',
  completedTitle: 'Assinado',
  completed: (date) => `Você assinou em ${date}. Obrigado: sua assinatura aparecerá nos certificados.`,
  deniedTitle: 'Recusado',
  denied: (date) => `Você recusou a assinatura em ${date}.`,
  yourReason: 'Seu motivo',
  cancelledTitle: 'Pedido cancelado',
  cancelled: 'Os organizadores cancelaram este pedido. Não há nada para assinar.',
};

const es: SignMessages = {
  title: 'Solicitud de firma',
  intro: (requester, event) =>
    `${requester}, en nombre de ${event}, solicita su firma en los certificados de esta edición.`,
  signatory: 'Firmante',
  expires: 'Enlace válido hasta',
  yourSignature: 'Su firma',
  drawHelp: 'Dibuje su firma en el recuadro con el ratón, el dedo o un lápiz, o suba una imagen PNG.',
  padLabel: 'Área para dibujar la firma',
  undo: 'Deshacer',
  clear: 'Borrar',
  upload: 'O suba una imagen PNG pequeña (hasta 256 KB)',
  uploadHelp: 'Una foto de su firma sobre fondo claro o transparente.',
  previewAlt: 'La firma subida',
  sign: 'Firmar',
  declineTitle: 'Rechazar',
  declineHelp: 'Si no debe firmar por esta edición, indique el motivo a los organizadores (opcional).',
  reason: 'Motivo',
  decline: 'Rechazar la firma',
  noscript: 'Para firmar se necesita JavaScript. Actívelo para esta página y recárguela.',
  script: {
    empty: 'Dibuje su firma o elija primero una imagen PNG.',
    tooLarge: 'Esta imagen es demasiado grande: el máximo es 256 KB. Elija una imagen PNG más pequeña.',
    notPng: 'El archivo no es una imagen PNG.',
    failed: 'No funcionó. Compruebe su conexión e inténtelo de nuevo.',
    sending: 'Enviando…',
    drawn: 'Firma dibujada.',
    cleared: 'Dibujo borrado.',
  },
  unknownTitle: 'Enlace no válido',
  unknown:
    'Este enlace de firma no es válido. Compruebe que abrió el enlace completo del mensaje que recibió.',
  expiredTitle: 'Enlace caducado',
  expired: 'Este enlace de firma ha caducado. Pida uno nuevo a los organizadores si aún desea firmar.',
  completedTitle: 'Firmado',
  completed: (date) => `Firmó el ${date}. Gracias: su firma aparecerá en los certificados.`,
  deniedTitle: 'Rechazado',
  denied: (date) => `Rechazó firmar el ${date}.`,
  yourReason: 'Su motivo',
  cancelledTitle: 'Solicitud cancelada',
  cancelled: 'Los organizadores cancelaron esta solicitud. No hay nada que firmar.',
};

export const SIGN_MESSAGES: Record<Language, SignMessages> = { en, 'pt-BR': ptBR, es };
