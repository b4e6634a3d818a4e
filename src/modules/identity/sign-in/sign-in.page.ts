/**
 * The sign-in pages (docs/reference/sign-in.md): the development form (no OIDC_ISSUER outside
 * production), the page of a failed sign-in, and the page of a production service with no provider.
 * Server-rendered in the language of `Accept-Language`, with the pages' CSP (kernel/pages/layout.ts).
 */
import { type Html, html } from '../../../kernel/pages/html.ts';
import type { Language } from '../../../kernel/pages/language.ts';
import { messagePage, page } from '../../../kernel/pages/layout.ts';
import { SIGN_OUT_SCRIPT } from '../sessions/index.ts';
import { SIGN_IN_MESSAGES, type SignInFailure } from './sign-in.messages.ts';

/** A sign-out button, for any page (its script sends the request with the CSRF header). */
export function signOutForm(language: Language, after = '/'): Html {
  const t = SIGN_IN_MESSAGES[language];
  return html`<form method="post" action="/auth/sign-out" data-sign-out data-after="${after}" data-msg-failed="${t.signOutFailed}">
<div class="actions"><button type="submit">${t.signOut}</button></div>
<p role="status" aria-live="polite"></p>
</form>`;
}

/** The development sign-in: an e-mail and a name, or, already signed in, who and a way out. */
export function devSignInPage(
  language: Language,
  returnTo: string,
  signedIn: { email: string; name: string | null } | undefined,
): Html {
  const t = SIGN_IN_MESSAGES[language];
  const here = `/auth/sign-in?return_to=${encodeURIComponent(returnTo)}`;
  const current =
    signedIn === undefined
      ? ''
      : html`<div class="card">
<p>${t.signedInAs(signedIn.name === null ? signedIn.email : `${signedIn.name} (${signedIn.email})`)}</p>
<p><a href="${returnTo}">${t.continue}</a></p>
${signOutForm(language, here)}
</div>`;
  return page({
    language,
    title: t.devTitle,
    body: html`<div class="card">
<h1>${t.devTitle}</h1>
<p class="hint">${t.devIntro}</p>
<form method="post" action="/auth/dev-sign-in">
<input type="hidden" name="return_to" value="${returnTo}">
<label for="email">${t.email}</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="320">
<label for="name">${t.name}</label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="200" aria-describedby="name-help">
<p class="hint" id="name-help">${t.nameHelp}</p>
<div class="actions"><button type="submit" class="primary">${t.signIn}</button></div>
</form>
</div>
${current}`,
    scripts: signedIn === undefined ? [] : [SIGN_OUT_SCRIPT],
    // The form's POST must carry this origin (sign-in.routes.ts), which `no-referrer` would blank.
    referrerPolicy: 'same-origin',
  });
}

/** A sign-in that did not complete, and a link to start again for the same page. */
export function signInFailedPage(language: Language, failure: SignInFailure, returnTo: string): Html {
  const t = SIGN_IN_MESSAGES[language];
  const again = html`<p><a href="/auth/sign-in?return_to=${encodeURIComponent(returnTo)}">${t.tryAgain}</a></p>`;
  return messagePage(
    language,
    t.failedTitle,
    t.failed[failure],
    html`<span hidden data-failure="${failure}"></span>${again}`,
  );
}

export function notConfiguredPage(language: Language): Html {
  const t = SIGN_IN_MESSAGES[language];
  return messagePage(language, t.notConfiguredTitle, t.notConfigured);
}
