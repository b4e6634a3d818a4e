/**
 * The words of the door (an edition's scanner), in the console's three languages; `messages.ts`
 * merges them into its own. English is the reference: the others must have exactly its keys.
 */
export const doorEn = {
  scanBadges: 'Scan badges',
  scanTitle: 'Door: {edition}',
  scanPlace: 'Checking in at',
  scanPlaceEdition: 'The edition itself',
  scanPlaceHint: 'Chosen once: this device remembers it for this edition.',
  scanCode: 'Badge code or address',
  scanCodeHint: 'Type or paste what the badge’s QR code holds, then press Enter.',
  scanCheckIn: 'Check in',
  scanReady: 'Ready for the next badge.',
  scanChecking: 'Checking…',
  scan_ok: 'Checked in',
  scan_already_checked_in: 'Already checked in',
  scan_revoked: 'Badge revoked',
  scan_unknown: 'Unknown badge',
  scan_wrong_edition: 'Badge of another edition',
  scan_not_allowed: 'Not allowed here',
  scan_not_open: 'Check-in is not open',
  scanFirstAt: 'First checked in {when}',
  scanReason_staff_only: 'This program is for staff only.',
  scanReason_access_level: 'This ticket’s access level is below what the program asks.',
  scanNotOpenHint: 'The door opens 24 hours before the edition starts and closes 24 hours after it ends.',
  scanUnknownHint: 'No badge has this code. Check what was typed, or send the person to the desk.',
  scanCounts: '{checkedIn} of {registered} checked in',
  scanCountsTitle: 'Attendance',
};

export type DoorMessages = typeof doorEn;

export const doorPtBR: DoorMessages = {
  scanBadges: 'Ler crachás',
  scanTitle: 'Portaria: {edition}',
  scanPlace: 'Check-in em',
  scanPlaceEdition: 'A própria edição',
  scanPlaceHint: 'Escolhido uma vez: este aparelho lembra para esta edição.',
  scanCode: 'Código ou endereço do crachá',
  scanCodeHint: 'Digite ou cole o que o QR code do crachá contém e tecle Enter.',
  scanCheckIn: 'Fazer check-in',
  scanReady: 'Pronto para o próximo crachá.',
  scanChecking: 'Verificando…',
  scan_ok: 'Check-in feito',
  scan_already_checked_in: 'Check-in já feito',
  scan_revoked: 'Crachá revogado',
  scan_unknown: 'Crachá desconhecido',
  scan_wrong_edition: 'Crachá de outra edição',
  scan_not_allowed: 'Sem acesso aqui',
  scan_not_open: 'O check-in não está aberto',
  scanFirstAt: 'Primeiro check-in {when}',
  scanReason_staff_only: 'Este programa é só para a equipe.',
  scanReason_access_level: 'O nível de acesso deste ingresso é menor que o exigido pelo programa.',
  scanNotOpenHint: 'A portaria abre 24 horas antes do início da edição e fecha 24 horas depois do fim.',
  scanUnknownHint:
    'Nenhum crachá tem este código. Confira o que foi digitado ou encaminhe a pessoa ao balcão.',
  scanCounts: '{checkedIn} de {registered} com check-in',
  scanCountsTitle: 'Presença',
};

export const doorEs: DoorMessages = {
  scanBadges: 'Leer credenciales',
  scanTitle: 'Acceso: {edition}',
  scanPlace: 'Registrando la entrada en',
  scanPlaceEdition: 'La edición en sí',
  scanPlaceHint: 'Se elige una vez: este dispositivo lo recuerda para esta edición.',
  scanCode: 'Código o dirección de la credencial',
  scanCodeHint: 'Escribe o pega lo que contiene el código QR de la credencial y pulsa Intro.',
  scanCheckIn: 'Registrar entrada',
  scanReady: 'Listo para la siguiente credencial.',
  scanChecking: 'Comprobando…',
  scan_ok: 'Entrada registrada',
  scan_already_checked_in: 'Ya había entrado',
  scan_revoked: 'Credencial revocada',
  scan_unknown: 'Credencial desconocida',
  scan_wrong_edition: 'Credencial de otra edición',
  scan_not_allowed: 'Sin acceso aquí',
  scan_not_open: 'El acceso no está abierto',
  scanFirstAt: 'Primera entrada {when}',
  scanReason_staff_only: 'Esta actividad es solo para el personal.',
  scanReason_access_level: 'El nivel de acceso de esta entrada es menor que el que pide la actividad.',
  scanNotOpenHint:
    'El acceso abre 24 horas antes del inicio de la edición y cierra 24 horas después del final.',
  scanUnknownHint:
    'Ninguna credencial tiene este código. Revisa lo escrito o envía a la persona al mostrador.',
  scanCounts: '{checkedIn} de {registered} ya entraron',
  scanCountsTitle: 'Asistencia',
};
