/** The console's entry: the query cache, the language, the router, then the shell (app.tsx). */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/preact-query';
import { render } from 'preact';
import { LocationProvider } from 'preact-iso';
import { ApiError } from './api.ts';
import { App } from './app.tsx';
import { I18nProvider } from './i18n.tsx';
import { registerServiceWorker } from './offline.ts';
import './style.css';

/**
 * A 401 anywhere means the session ended (signed out elsewhere, 2 h idle, past its lifetime): the
 * console forgets who was signed in and shows the sign-in link back to the same screen.
 */
function onError(error: unknown) {
  if (error instanceof ApiError && error.status === 401) queries.setQueryData(['session'], null);
}

const queries: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    // A refusal (401, 403, 404) is an answer, not a blip: asking again would not change it.
    queries: { retry: false, staleTime: 10_000, refetchOnWindowFocus: true },
  },
});

// The door opens offline through it.
registerServiceWorker(() => void queries.invalidateQueries());

const root = document.getElementById('app');
if (root !== null) {
  root.textContent = '';
  render(
    <QueryClientProvider client={queries}>
      <I18nProvider>
        {/* Only the console's own addresses are routed here: the sign-in link and the API load as pages. */}
        <LocationProvider scope="/console">
          <App />
        </LocationProvider>
      </I18nProvider>
    </QueryClientProvider>,
    root,
  );
}
