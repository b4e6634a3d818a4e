/**
 * The shell: who is signed in (`GET /auth/session`), the header with the language switcher and
 * sign-out, and the screens by address. Without a session the only screen is the sign-in link,
 * which comes back to the address the person opened.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useRef } from 'preact/hooks';
import { Route, Router, useLocation } from 'preact-iso';
import { ApiError, api, signInHref, unwrap } from './api.ts';
import { useI18n } from './i18n.tsx';
import { LANGUAGES, type Language, MESSAGES } from './messages.ts';
import { forgetKeptReads } from './offline.ts';
import { AttendanceScreen } from './screens/attendance.tsx';
import { CertificatesScreen } from './screens/certificates.tsx';
import { EditionScreen } from './screens/edition.tsx';
import { EmailTemplatesScreen } from './screens/email-templates.tsx';
import { EmailsScreen } from './screens/emails.tsx';
import { EventScreen } from './screens/event.tsx';
import { EventsScreen } from './screens/events.tsx';
import { PaymentsScreen } from './screens/payments.tsx';
import { RegistrationsScreen } from './screens/registrations.tsx';
import { SalesScreen } from './screens/sales.tsx';
import { ScanScreen } from './screens/scan.tsx';
import { WebhooksScreen } from './screens/webhooks.tsx';
import { ErrorNotice, Pending } from './ui.tsx';

export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        return await unwrap(api.GET('/auth/session'));
      } catch (error) {
        // No live session is an answer: the console then asks to sign in.
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
  });
}

function LanguageSwitcher() {
  const { t, language, setLanguage } = useI18n();
  return (
    <div class="language">
      <label for="language">{t('language')}</label>
      <select
        id="language"
        value={language}
        onChange={(event) => setLanguage(event.currentTarget.value as Language)}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {MESSAGES[code].languageName}
          </option>
        ))}
      </select>
    </div>
  );
}

function SignOut() {
  const { t } = useI18n();
  const queries = useQueryClient();
  const signOut = useMutation({
    // The answer is a 303 to `/`; the console stays and shows its sign-in screen instead.
    mutationFn: () => api.POST('/auth/sign-out', { redirect: 'manual' }),
    onSettled: () => {
      queries.clear();
      queries.setQueryData(['session'], null);
      forgetKeptReads();
    },
  });
  return (
    <button type="button" class="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      {t('signOut')}
    </button>
  );
}

/** Moves the focus to the new screen's heading after a client-side navigation (not on first load). */
function useFocusOnNavigation() {
  const { path } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path]);
}

function SignIn() {
  const { t } = useI18n();
  const { url } = useLocation();
  return (
    <div class="card narrow">
      <h1 tabIndex={-1}>{t('signInTitle')}</h1>
      <p>{t('signInText')}</p>
      <a class="button" href={signInHref(url)}>
        {t('signIn')}
      </a>
    </div>
  );
}

function NotFound() {
  const { t } = useI18n();
  return (
    <div class="card">
      <h1 tabIndex={-1}>{t('notFound')}</h1>
      <a href="/console">{t('allEvents')}</a>
    </div>
  );
}

export function App() {
  const { t } = useI18n();
  const session = useSession();
  useFocusOnNavigation();
  useEffect(() => {
    document.title = t('appName');
  }, [t]);
  const person = session.data;
  return (
    <>
      <a class="skip" href="#main">
        {t('skipToContent')}
      </a>
      <header class="top">
        <a class="brand" href="/console">
          {t('appName')}
        </a>
        <div class="top-tools">
          <LanguageSwitcher />
          {person ? (
            <>
              <span class="who">{t('signedInAs', { who: person.name ?? person.email })}</span>
              <SignOut />
            </>
          ) : null}
        </div>
      </header>
      <main id="main">
        {session.isPending ? <Pending query={session} /> : null}
        {session.isError ? <ErrorNotice error={session.error} /> : null}
        {person === null ? <SignIn /> : null}
        {person ? (
          <Router>
            <Route path="/console" component={EventsScreen} />
            <Route path="/console/events/:eventId" component={EventScreen} />
            <Route path="/console/events/:eventId/editions/:editionId" component={EditionScreen} />
            <Route path="/console/events/:eventId/payments" component={PaymentsScreen} />
            <Route path="/console/wallets/:walletId/webhooks" component={WebhooksScreen} />
            <Route path="/console/events/:eventId/email-templates" component={EmailTemplatesScreen} />
            <Route path="/console/events/:eventId/emails" component={EmailsScreen} />
            <Route
              path="/console/events/:eventId/editions/:editionId/registrations"
              component={RegistrationsScreen}
            />
            <Route path="/console/events/:eventId/editions/:editionId/sales" component={SalesScreen} />
            <Route
              path="/console/events/:eventId/editions/:editionId/attendance"
              component={AttendanceScreen}
            />
            <Route
              path="/console/events/:eventId/editions/:editionId/certificates"
              component={CertificatesScreen}
            />
            <Route path="/console/editions/:editionId/scan" component={ScanScreen} />
            <Route default component={NotFound} />
          </Router>
        ) : null}
      </main>
    </>
  );
}
