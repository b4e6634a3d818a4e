/**
 * What the sign-in pages say, in each page language (docs/reference/pages.md): the development
 * sign-in form, the page of a sign-in that failed, and the page of a service with no provider.
 */
import type { Language } from '../../../kernel/pages/language.ts';

const en = {
  devTitle: 'Sign in (development)',
  devIntro:
    'This service has no identity provider configured, so in development anyone can sign in as anyone: ' +
    'type an e-mail address and a name.',
  email: 'E-mail address',
  name: 'Name (optional)',
  nameHelp: 'Shown on badges and certificates.',
  signIn: 'Sign in',
  signedInAs: (who: string) => `You are signed in as ${who}.`,
  continue: 'Continue',
  signOut: 'Sign out',
  signOutFailed: 'Signing out did not work. Reload the page and try again.',
  failedTitle: 'Sign-in failed',
  failed: {
    state: 'This sign-in link was already used or has expired. Start again from the page you were on.',
    provider: 'The identity service did not sign you in. Try again, or ask its administrator.',
    token: 'The answer of the identity service could not be verified, so you are not signed in. Try again.',
    email: 'The identity service did not share your e-mail address, which this service needs.',
  },
  tryAgain: 'Sign in again',
  notConfiguredTitle: 'Sign-in unavailable',
  notConfigured:
    'Browser sign-in is not configured on this service. API clients can still use bearer tokens.',
};

export type SignInMessages = typeof en;

const ptBR: SignInMessages = {
  devTitle: 'Entrar (desenvolvimento)',
  devIntro:
    'Este serviço não tem um provedor de identidade configurado; em desenvolvimento, qualquer pessoa ' +
    'pode entrar como qualquer outra: digite um e-mail e um nome.',
  email: 'Endereço de e-mail',
  name: 'Nome (opcional)',
  nameHelp: 'Aparece nos crachás e certificados.',
  signIn: 'Entrar',
  signedInAs: (who) => `Você entrou como ${who}.`,
  continue: 'Continuar',
  signOut: 'Sair',
  signOutFailed: 'Não foi possível sair. Recarregue a página e tente de novo.',
  failedTitle: 'Falha ao entrar',
  failed: {
    state:
      'Este link de acesso já foi usado ou expirou. Comece de novo a partir da página em que você estava.',
    provider: 'O serviço de identidade não concluiu o acesso. Tente de novo ou fale com quem o administra.',
    token:
      'A resposta do serviço de identidade não pôde ser verificada, então você não entrou. Tente de novo.',
    email: 'O serviço de identidade não informou seu e-mail, que este serviço precisa.',
  },
  tryAgain: 'Entrar de novo',
  notConfiguredTitle: 'Acesso indisponível',
  notConfigured:
    'O acesso pelo navegador não está configurado neste serviço. Clientes da API ainda podem usar tokens.',
};

const es: SignInMessages = {
  devTitle: 'Iniciar sesión (desarrollo)',
  devIntro:
    'Este servicio no tiene un proveedor de identidad configurado; en desarrollo, cualquiera puede entrar ' +
    'como cualquier persona: escriba un correo y un nombre.',
  email: 'Correo electrónico',
  name: 'Nombre (opcional)',
  nameHelp: 'Se muestra en credenciales y certificados.',
  signIn: 'Iniciar sesión',
  signedInAs: (who) => `Inició sesión como ${who}.`,
  continue: 'Continuar',
  signOut: 'Cerrar sesión',
  signOutFailed: 'No se pudo cerrar la sesión. Recargue la página e inténtelo de nuevo.',
  failedTitle: 'No se pudo iniciar sesión',
  failed: {
    state:
      'Este enlace de inicio de sesión ya se usó o venció. Empiece de nuevo desde la página en la que estaba.',
    provider:
      'El servicio de identidad no inició su sesión. Inténtelo de nuevo o consulte a su administrador.',
    token:
      'No se pudo verificar la respuesta del servicio de identidad, así que no inició sesión. Inténtelo de nuevo.',
    email: 'El servicio de identidad no compartió su correo electrónico, que este servicio necesita.',
  },
  tryAgain: 'Iniciar sesión de nuevo',
  notConfiguredTitle: 'Inicio de sesión no disponible',
  notConfigured:
    'El inicio de sesión desde el navegador no está configurado en este servicio. Los clientes de la API ' +
    'pueden seguir usando tokens.',
};

export const SIGN_IN_MESSAGES: Record<Language, SignInMessages> = { en, 'pt-BR': ptBR, es };

export type SignInFailure = keyof SignInMessages['failed'];
