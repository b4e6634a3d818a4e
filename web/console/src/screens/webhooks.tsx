/**
 * `/console/wallets/{wallet_id}/webhooks`, "Integrate": the wallet's webhook endpoints (contract
 * 7.3: `/wallets/{wallet_id}/webhooks/endpoints`, `/webhooks/endpoints/{endpoint_id}`): create one
 * (its signing secret is shown this once, with a copy button), rotate the secret (shown once too),
 * send a test event (`…/test`), pause and resume (`enabled`), delete; and each endpoint's deliveries
 * (`…/deliveries`), newest first, with every attempt's status, answer and time
 * (`/webhooks/deliveries/{delivery_id}/attempts`), and a retry. The wallet's owner only: anyone
 * else gets the API's 404 and the screen says so.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type Schemas, unwrap } from '../api.ts';
import { useI18n } from '../i18n.tsx';
import { ErrorNotice, Field, fieldError, formValues, Notice, Pending } from '../ui.tsx';

type Endpoint = Schemas['WebhookEndpoint'];
type Delivery = Schemas['WebhookDelivery'];

/** A secret the API shows once, with the endpoint it signs for. */
interface Shown {
  name: string;
  secret: string;
}

/** The secret, once: a read-only field to select, a copy button, and the warning. */
function SecretOnce({ shown, onDone }: { shown: Shown; onDone: () => void }) {
  const { t } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();
  const copy = async () => {
    // The Clipboard API needs a secure context; on plain HTTP at a LAN address the selection's
    // copy command still works, and otherwise the person copies the selected text themselves.
    input.current?.select();
    try {
      if (navigator.clipboard !== undefined) await navigator.clipboard.writeText(shown.secret);
      else if (!document.execCommand('copy')) throw new Error('copy refused');
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <section class="card secret" aria-labelledby="secret-title">
      <h2 id="secret-title" class="wrap">
        {t('secretTitle', { name: shown.name })}
      </h2>
      <Notice kind="ok">{t('secretOnce')}</Notice>
      <div class="field">
        <label for="secret">{t('secretLabel')}</label>
        <input
          id="secret"
          ref={input}
          readOnly
          value={shown.secret}
          class="mono"
          spellcheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <div class="actions">
        <button type="button" onClick={copy}>
          {t('copy')}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          {t('done')}
        </button>
      </div>
      <p role="status" class="hint">
        {copied === 'yes' ? t('copied') : copied === 'no' ? t('copyManually') : ''}
      </p>
    </section>
  );
}

function Attempts({ delivery }: { delivery: Delivery }) {
  const { t, when } = useI18n();
  const attempts = useQuery({
    queryKey: ['attempts', delivery.id, delivery.attempts],
    queryFn: () =>
      unwrap(
        api.GET('/webhooks/deliveries/{delivery_id}/attempts', {
          params: { path: { delivery_id: delivery.id }, query: { limit: 100 } },
        }),
      ),
  });
  if (attempts.data === undefined) return <Pending query={attempts} />;
  if (attempts.data.length === 0) return <p class="muted">{t('noAttempts')}</p>;
  return (
    <ol class="attempts">
      {attempts.data.map((attempt) => (
        <li key={attempt.attempt}>
          <dl class="facts">
            <dt>{t('attempt')}</dt>
            <dd>{attempt.attempt}</dd>
            <dt>{t('startedAt')}</dt>
            <dd>{when(attempt.started_at)}</dd>
            <dt>{t('duration')}</dt>
            <dd>{t('durationMs', { ms: attempt.duration_ms })}</dd>
            <dt>{t('responseStatus')}</dt>
            <dd>{attempt.response_status ?? attempt.error ?? t('noAnswer')}</dd>
            <dt>{t('responseBody')}</dt>
            <dd>
              <pre class="excerpt">{attempt.response_body ?? ''}</pre>
            </dd>
          </dl>
        </li>
      ))}
    </ol>
  );
}

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  const { t, when } = useI18n();
  const queries = useQueryClient();
  const [open, setOpen] = useState(false);
  const retry = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/webhooks/deliveries/{delivery_id}/retry', {
          params: { path: { delivery_id: delivery.id } },
        }),
      ),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['deliveries', delivery.endpoint_id] }),
  });
  const created = when(delivery.created_at);
  return (
    <li>
      <span
        class={`tag tag-${delivery.status === 'delivered' ? 'active' : delivery.status === 'failed' ? 'expired' : 'pending'}`}
      >
        {t(`delivery_${delivery.status as 'pending' | 'delivered' | 'failed'}`)}
      </span>{' '}
      {delivery.response_status === null ? null : <span class="tag">{delivery.response_status}</span>}{' '}
      <span class="muted">{t('deliverySummary', { when: created, attempts: delivery.attempts })}</span>
      {delivery.status === 'pending' && delivery.next_attempt_at !== null ? (
        <span class="muted"> · {t('nextAttempt', { when: when(delivery.next_attempt_at) })}</span>
      ) : null}{' '}
      <button
        type="button"
        class="secondary small"
        onClick={() => retry.mutate()}
        disabled={retry.isPending}
        aria-label={`${t('retry_delivery')}: ${created}`}
      >
        {t('retry_delivery')}
      </button>
      {retry.isError ? <ErrorNotice error={retry.error} /> : null}
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary aria-label={t('attemptsOf', { when: created })}>{t('attemptsHeading')}</summary>
        {open ? <Attempts delivery={delivery} /> : null}
      </details>
    </li>
  );
}

function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const { t } = useI18n();
  const deliveries = useQuery({
    queryKey: ['deliveries', endpoint.id],
    queryFn: () =>
      unwrap(
        api.GET('/webhooks/endpoints/{endpoint_id}/deliveries', {
          params: { path: { endpoint_id: endpoint.id }, query: { limit: 20 } },
        }),
      ),
    // While a delivery is on its way, look again: its attempts come within seconds.
    refetchInterval: (query) => (query.state.data?.some((one) => one.status === 'pending') ? 2000 : false),
  });
  const headingId = `deliveries-${endpoint.id}`;
  return (
    <section aria-labelledby={headingId} class="deliveries">
      <h4 id={headingId}>{t('deliveriesOf', { name: endpoint.name })}</h4>
      <button type="button" class="secondary small" onClick={() => deliveries.refetch()}>
        {t('refresh')}
      </button>
      {deliveries.data === undefined ? (
        <Pending query={deliveries} />
      ) : deliveries.data.length === 0 ? (
        <p class="muted">{t('noDeliveries')}</p>
      ) : (
        <ul class="rows">
          {deliveries.data.map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} />
          ))}
        </ul>
      )}
    </section>
  );
}

function EndpointCard({ endpoint, onSecret }: { endpoint: Endpoint; onSecret: (shown: Shown) => void }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const path = { endpoint_id: endpoint.id };
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queries.invalidateQueries({ queryKey: ['endpoints', endpoint.wallet_id] });
  const test = useMutation({
    mutationFn: () => unwrap(api.POST('/webhooks/endpoints/{endpoint_id}/test', { params: { path } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['deliveries', endpoint.id] }),
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      unwrap(api.PATCH('/webhooks/endpoints/{endpoint_id}', { params: { path }, body: { enabled } })),
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/webhooks/endpoints/{endpoint_id}/rotate-secret', { params: { path } })),
    onSuccess: (rotated) => onSecret({ name: rotated.name, secret: rotated.secret }),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/webhooks/endpoints/{endpoint_id}', { params: { path } })),
    onSuccess: refresh,
  });
  const error = test.error ?? toggle.error ?? rotate.error ?? remove.error;
  const headingId = `endpoint-${endpoint.id}`;
  return (
    <li class="card endpoint" aria-labelledby={headingId}>
      <h3 id={headingId} class="wrap">
        {endpoint.name}
      </h3>
      <p class="wrap mono">{endpoint.url}</p>
      <p class="tags">
        <span class={`tag tag-${endpoint.enabled ? 'active' : 'pending'}`}>
          {t(endpoint.enabled ? 'enabled' : 'paused')}
        </span>
        {endpoint.disabled_reason ? (
          <span class="muted">{t('disabledBecause', { reason: endpoint.disabled_reason })}</span>
        ) : null}
      </p>
      {error ? <ErrorNotice error={error} /> : null}
      {test.isSuccess ? <Notice kind="ok">{t('testSent')}</Notice> : null}
      <div class="actions">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending || !endpoint.enabled}>
          {t('sendTest')}
        </button>
        <button
          type="button"
          class="secondary"
          onClick={() => toggle.mutate(!endpoint.enabled)}
          disabled={toggle.isPending}
        >
          {t(endpoint.enabled ? 'pause' : 'resume')}
        </button>
        <button
          type="button"
          class="secondary"
          aria-describedby={`${headingId}-rotate`}
          onClick={() => rotate.mutate()}
          disabled={rotate.isPending}
        >
          {t('rotateSecret')}
        </button>
        <button
          type="button"
          class="secondary"
          onClick={() => setConfirming(true)}
          disabled={remove.isPending}
        >
          {t('delete')}
        </button>
      </div>
      <p class="hint" id={`${headingId}-rotate`}>
        {t('rotateHint')}
      </p>
      {confirming ? (
        <fieldset class="confirm">
          <legend>{t('confirmDelete', { name: endpoint.name })}</legend>
          <div class="actions">
            <button type="button" class="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
              {t('confirmDeleteYes')}
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </button>
          </div>
        </fieldset>
      ) : null}
      <Deliveries endpoint={endpoint} />
    </li>
  );
}

function NewEndpoint({ walletId, onSecret }: { walletId: string; onSecret: (shown: Shown) => void }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const create = useMutation({
    mutationFn: (body: { name: string; url: string }) =>
      unwrap(
        api.POST('/wallets/{wallet_id}/webhooks/endpoints', {
          params: { path: { wallet_id: walletId } },
          body,
        }),
      ),
    onSuccess: (created) => {
      onSecret({ name: created.name, secret: created.secret });
      return queries.invalidateQueries({ queryKey: ['endpoints', walletId] });
    },
  });
  return (
    <details class="create">
      <summary>{t('newEndpoint')}</summary>
      <form
        onSubmit={(submitted) => {
          submitted.preventDefault();
          const form = submitted.currentTarget;
          const values = formValues(submitted);
          create.mutate(
            { name: values.name ?? '', url: values.url ?? '' },
            { onSuccess: () => form.reset() },
          );
        }}
      >
        {create.isError ? <ErrorNotice error={create.error} /> : null}
        <Field
          label={t('endpointName')}
          name="name"
          maxLength={200}
          error={fieldError(create.error, 'name')}
        />
        <Field
          label={t('endpointUrl')}
          name="url"
          type="url"
          hint={t('endpointUrlHint')}
          autoCapitalize="off"
          spellcheck={false}
          error={fieldError(create.error, 'url')}
        />
        <button type="submit" disabled={create.isPending}>
          {t('create')}
        </button>
      </form>
    </details>
  );
}

export function WebhooksScreen() {
  const { t } = useI18n();
  const { params } = useRoute();
  const walletId = params.walletId ?? '';
  const [shown, setShown] = useState<Shown | null>(null);
  const wallet = useQuery({
    queryKey: ['wallet', walletId],
    queryFn: () => unwrap(api.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: walletId } } })),
  });
  const endpoints = useQuery({
    queryKey: ['endpoints', walletId],
    enabled: wallet.isSuccess,
    queryFn: () =>
      unwrap(
        api.GET('/wallets/{wallet_id}/webhooks/endpoints', {
          params: { path: { wallet_id: walletId }, query: { limit: 100 } },
        }),
      ),
  });
  return (
    <>
      <nav aria-label="breadcrumb" class="crumbs">
        <a href="/console">{t('allEvents')}</a>
      </nav>
      <h1 tabIndex={-1} class="wrap">
        {wallet.data ? t('integrateTitle', { wallet: wallet.data.name }) : t('integrate')}
      </h1>
      {wallet.data === undefined ? (
        <Pending query={wallet} />
      ) : (
        <>
          <p class="hint">{t('integrateHint')}</p>
          {shown ? <SecretOnce key={shown.secret} shown={shown} onDone={() => setShown(null)} /> : null}
          <section class="card" aria-labelledby="endpoints">
            <h2 id="endpoints">{t('endpoints')}</h2>
            {endpoints.data === undefined ? (
              <Pending query={endpoints} />
            ) : endpoints.data.length === 0 ? (
              <p>{t('noEndpoints')}</p>
            ) : (
              <ul class="cards">
                {endpoints.data.map((endpoint) => (
                  <EndpointCard key={endpoint.id} endpoint={endpoint} onSecret={setShown} />
                ))}
              </ul>
            )}
            <NewEndpoint walletId={walletId} onSecret={setShown} />
          </section>
        </>
      )}
    </>
  );
}
