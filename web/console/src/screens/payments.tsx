/**
 * `/console/events/{event_id}/payments`, "Get paid": the event's payment link (contract 8:
 * `GET`/`PUT`/`DELETE /events/{event_id}/payments`) and the person's wallets (`/wallets`), each with
 * its sandbox flag, its fee (basis points, shown as a percentage), its Mercado Pago accounts
 * (`GET /wallets/{wallet_id}/sellers`) and the button that connects one: `POST
 * /providers/mercadopago/connect` answers the provider's consent address, the browser goes there,
 * and the service's callback sends it back to this screen's absolute address with
 * `status=connected` or `status=error&error=…` (docs/console.md, "Get paid"). Linking is the
 * event owner's, with a wallet of their own; an admin sees the link read-only.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { ApiError, api, type Schemas, unwrap } from '../api.ts';
import { useI18n } from '../i18n.tsx';
import type { MessageKey } from '../messages.ts';
import { ErrorNotice, Field, fieldError, formValues, Notice, Pending } from '../ui.tsx';
import { canAdmin, useEvent, useRole } from './event.tsx';

type Wallet = Schemas['Wallet'];
type Seller = Schemas['Seller'];

export function useWallets() {
  return useQuery({
    queryKey: ['wallets'],
    queryFn: () => unwrap(api.GET('/wallets', { params: { query: { limit: 100 } } })),
  });
}

export function useSellers(walletId: string) {
  return useQuery({
    queryKey: ['sellers', walletId],
    queryFn: () =>
      unwrap(
        api.GET('/wallets/{wallet_id}/sellers', {
          params: { path: { wallet_id: walletId }, query: { limit: 100 } },
        }),
      ),
  });
}

/** The event's link, or null when it has none (the API's 404). */
function usePaymentLink(eventId: string) {
  return useQuery({
    queryKey: ['payment-link', eventId],
    queryFn: async () => {
      try {
        return await unwrap(
          api.GET('/events/{event_id}/payments', { params: { path: { event_id: eventId } } }),
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** Basis points as the percentage the person reads and types: 250 is "2.5". */
const percentOf = (bps: number) => String(bps / 100);
const bpsOf = (percent: string) => Math.round(Number(percent.replace(',', '.')) * 100);

/** What the provider's callback said, from this screen's query on the way back. */
function ConnectOutcome() {
  const { t } = useI18n();
  const { query } = useLocation();
  if (query.status === 'connected') return <Notice kind="ok">{t('connected')}</Notice>;
  if (query.status !== 'error') return null;
  const key = `connectError_${query.error}` as MessageKey;
  const known = ['access_denied', 'provider_error', 'invalid_request'].includes(query.error ?? '');
  return <Notice kind="error">{t('connectFailed', { error: known ? t(key) : (query.error ?? '') })}</Notice>;
}

function PaymentLink({ eventId, isOwner }: { eventId: string; isOwner: boolean }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const link = usePaymentLink(eventId);
  const wallets = useWallets();
  const [walletId, setWalletId] = useState<string>('');
  const chosen = walletId || wallets.data?.[0]?.id || '';
  const sellers = useQuery({
    queryKey: ['sellers', chosen],
    enabled: isOwner && chosen !== '',
    queryFn: () =>
      unwrap(
        api.GET('/wallets/{wallet_id}/sellers', {
          params: { path: { wallet_id: chosen }, query: { limit: 100 } },
        }),
      ),
  });
  const live = (sellers.data ?? []).filter((seller) => seller.revoked_at === null);
  const path = { event_id: eventId };
  const put = useMutation({
    mutationFn: (body: { wallet_id: string; seller_id: string }) =>
      unwrap(api.PUT('/events/{event_id}/payments', { params: { path }, body })),
    onSuccess: (saved) => queries.setQueryData(['payment-link', eventId], saved),
  });
  const unlink = useMutation({
    mutationFn: () => unwrap(api.DELETE('/events/{event_id}/payments', { params: { path } })),
    onSuccess: () => queries.setQueryData(['payment-link', eventId], null),
  });
  const current = link.data;
  const walletName = (id: string) => wallets.data?.find((wallet) => wallet.id === id)?.name ?? id;
  return (
    <section class="card" aria-labelledby="payment-link">
      <h2 id="payment-link">{t('paymentLink')}</h2>
      <p class="hint">{t('paymentLinkHint')}</p>
      {current === undefined ? (
        <Pending query={link} />
      ) : current === null ? (
        <p>{t('noPaymentLink')}</p>
      ) : (
        <dl class="facts">
          <dt>{t('linkedWallet')}</dt>
          <dd class="wrap">{walletName(current.wallet_id)}</dd>
          <dt>{t('linkedSeller')}</dt>
          <dd class="wrap">
            <SellerName walletId={current.wallet_id} sellerId={current.seller_id} mine={isOwner} />
          </dd>
          <dt>{t('status')}</dt>
          <dd>
            <span class={`tag tag-${current.sandbox ? 'pending' : 'active'}`}>
              {t(current.sandbox ? 'sandboxOn' : 'sandboxOff')}
            </span>
          </dd>
        </dl>
      )}
      {put.isSuccess ? <Notice kind="ok">{t('linked')}</Notice> : null}
      {unlink.isError ? <ErrorNotice error={unlink.error} /> : null}
      {!isOwner ? (
        <p class="hint">{t('linkOwnerOnly')}</p>
      ) : wallets.data === undefined ? null : wallets.data.length === 0 ? (
        <p class="hint">{t('linkNeedsSeller')}</p>
      ) : (
        <form
          class="link-form"
          onSubmit={(submitted) => {
            submitted.preventDefault();
            const values = formValues(submitted);
            put.mutate({ wallet_id: values.wallet_id ?? '', seller_id: values.seller_id ?? '' });
          }}
        >
          {put.isError ? <ErrorNotice error={put.error} /> : null}
          <div class="pair">
            <div class="field">
              <label for="link-wallet">{t('chooseWallet')}</label>
              <select
                id="link-wallet"
                name="wallet_id"
                value={chosen}
                onChange={(event) => setWalletId(event.currentTarget.value)}
              >
                {wallets.data.map((wallet) => (
                  <option key={wallet.id} value={wallet.id}>
                    {wallet.name}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="link-seller">{t('chooseSeller')}</label>
              <select id="link-seller" name="seller_id" required disabled={live.length === 0}>
                {live.map((seller) => (
                  <option key={seller.id} value={seller.id}>
                    {t('sellerAccount', { account: seller.provider_user_id })}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {sellers.isSuccess && live.length === 0 ? <p class="hint">{t('linkNeedsSeller')}</p> : null}
          <div class="actions">
            <button type="submit" disabled={put.isPending || live.length === 0}>
              {current ? t('relinkWallet') : t('linkWallet')}
            </button>
            {current ? (
              <button
                type="button"
                class="secondary"
                onClick={() => unlink.mutate()}
                disabled={unlink.isPending}
              >
                {t('unlinkWallet')}
              </button>
            ) : null}
          </div>
        </form>
      )}
    </section>
  );
}

/** A linked seller by its account number, when the person owns its wallet (else its id). */
function SellerName({ walletId, sellerId, mine }: { walletId: string; sellerId: string; mine: boolean }) {
  const { t } = useI18n();
  const wallets = useWallets();
  const owned = mine && (wallets.data ?? []).some((wallet) => wallet.id === walletId);
  const sellers = useQuery({
    queryKey: ['sellers', walletId],
    enabled: owned,
    queryFn: () =>
      unwrap(
        api.GET('/wallets/{wallet_id}/sellers', {
          params: { path: { wallet_id: walletId }, query: { limit: 100 } },
        }),
      ),
  });
  const seller = sellers.data?.find((candidate) => candidate.id === sellerId);
  return <>{seller ? t('sellerAccount', { account: seller.provider_user_id }) : sellerId}</>;
}

function Sellers({ wallet, eventId }: { wallet: Wallet; eventId: string }) {
  const { t, when } = useI18n();
  const sellers = useSellers(wallet.id);
  const connect = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/providers/{provider}/connect', {
          params: { path: { provider: 'mercadopago' } },
          body: {
            flow: 'seller',
            wallet_id: wallet.id,
            // Absolute, as the API asks: this very screen at whatever address the console is on.
            final_redirect_url: `${window.location.origin}/console/events/${eventId}/payments`,
          },
        }),
      ),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  return (
    <div>
      <h4>{t('sellers')}</h4>
      {sellers.data === undefined ? (
        <Pending query={sellers} />
      ) : sellers.data.length === 0 ? (
        <p class="muted">{t('noSellers')}</p>
      ) : (
        <ul class="rows">
          {sellers.data.map((seller: Seller) => (
            <li key={seller.id}>
              {t('sellerAccount', { account: seller.provider_user_id })}{' '}
              <span class={`tag tag-${seller.revoked_at === null ? 'active' : 'expired'}`}>
                {t(seller.revoked_at === null ? 'sellerLive' : 'sellerRevoked')}
              </span>
              <span class="muted"> · {when(seller.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
      {connect.isError ? <ErrorNotice error={connect.error} /> : null}
      <p class="hint">{t('connectHint')}</p>
      <button
        type="button"
        class="secondary"
        aria-label={t('connectSellerTo', { wallet: wallet.name })}
        onClick={() => connect.mutate()}
        disabled={connect.isPending || connect.isSuccess}
      >
        {connect.isPending || connect.isSuccess ? t('connectRedirecting') : t('connectSeller')}
      </button>
    </div>
  );
}

function WalletCard({ wallet, eventId }: { wallet: Wallet; eventId: string }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const path = { wallet_id: wallet.id };
  const saved = (next: Wallet) => {
    queries.setQueryData<Wallet[]>(['wallets'], (all) =>
      all?.map((one) => (one.id === next.id ? next : one)),
    );
    return queries.invalidateQueries({ queryKey: ['payment-link'] });
  };
  const sandbox = useMutation({
    mutationFn: (value: boolean) =>
      unwrap(api.PATCH('/wallets/{wallet_id}/sandbox', { params: { path }, body: { sandbox: value } })),
    onSuccess: saved,
  });
  const fee = useMutation({
    mutationFn: (feeBps: number) =>
      unwrap(api.PATCH('/wallets/{wallet_id}/fee', { params: { path }, body: { fee_bps: feeBps } })),
    onSuccess: saved,
  });
  const headingId = `wallet-${wallet.id}`;
  return (
    <li class="card wallet" aria-labelledby={headingId}>
      <h3 id={headingId} class="wrap">
        {wallet.name}
      </h3>
      {sandbox.isError ? <ErrorNotice error={sandbox.error} /> : null}
      <label class="check">
        <input
          type="checkbox"
          // While the change is on its way the box shows it, rather than springing back.
          checked={sandbox.isPending ? sandbox.variables : wallet.sandbox}
          disabled={sandbox.isPending}
          onChange={(event) => sandbox.mutate(event.currentTarget.checked)}
        />{' '}
        {t('sandbox')}
      </label>
      <form
        onSubmit={(submitted) => {
          submitted.preventDefault();
          fee.mutate(bpsOf(formValues(submitted).fee ?? '0'));
        }}
      >
        {fee.isError ? <ErrorNotice error={fee.error} /> : null}
        {fee.isSuccess ? <Notice kind="ok">{t('saved')}</Notice> : null}
        <Field
          label={t('fee')}
          name="fee"
          type="number"
          min={0}
          max={100}
          step={0.01}
          inputMode="decimal"
          hint={t('feeHint')}
          defaultValue={percentOf(wallet.fee_bps)}
          error={fieldError(fee.error, 'fee_bps')}
        />
        <button type="submit" class="secondary" disabled={fee.isPending}>
          {t('saveFee')}
        </button>
      </form>
      <Sellers wallet={wallet} eventId={eventId} />
      <p>
        <a
          href={`/console/wallets/${wallet.id}/webhooks`}
          aria-label={t('integrateWallet', { wallet: wallet.name })}
        >
          {t('integrate')}
        </a>
      </p>
    </li>
  );
}

function Wallets({ eventId }: { eventId: string }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const wallets = useWallets();
  const create = useMutation({
    mutationFn: (name: string) => unwrap(api.POST('/wallets', { body: { name } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['wallets'] }),
  });
  return (
    <section class="card" aria-labelledby="wallets">
      <h2 id="wallets">{t('wallets')}</h2>
      {wallets.data === undefined ? (
        <Pending query={wallets} />
      ) : wallets.data.length === 0 ? (
        <p>{t('noWallets')}</p>
      ) : (
        <ul class="cards">
          {wallets.data.map((wallet) => (
            <WalletCard key={wallet.id} wallet={wallet} eventId={eventId} />
          ))}
        </ul>
      )}
      <details class="create" open={wallets.data?.length === 0}>
        <summary>{t('newWallet')}</summary>
        <form
          onSubmit={(submitted) => {
            submitted.preventDefault();
            const form = submitted.currentTarget;
            create.mutate(formValues(submitted).name ?? '', { onSuccess: () => form.reset() });
          }}
        >
          {create.isError ? <ErrorNotice error={create.error} /> : null}
          <Field
            label={t('walletName')}
            name="name"
            maxLength={200}
            error={fieldError(create.error, 'name')}
          />
          <button type="submit" disabled={create.isPending}>
            {t('create')}
          </button>
        </form>
      </details>
    </section>
  );
}

export function PaymentsScreen() {
  const { t } = useI18n();
  const { params } = useRoute();
  const eventId = params.eventId ?? '';
  const event = useEvent(eventId);
  const role = useRole(eventId);
  return (
    <>
      <nav aria-label="breadcrumb" class="crumbs">
        <a href="/console">{t('allEvents')}</a> ›{' '}
        <a href={`/console/events/${eventId}`}>{event.data?.name ?? t('backToEvent')}</a>
      </nav>
      <h1 tabIndex={-1}>{event.data ? t('getPaidTitle', { event: event.data.name }) : t('getPaid')}</h1>
      <ConnectOutcome />
      {event.data === undefined ? (
        <Pending query={event} />
      ) : role !== undefined && !canAdmin(role) ? (
        <Notice kind="error">{t('forbidden')}</Notice>
      ) : (
        <div class="grid">
          <PaymentLink eventId={eventId} isOwner={role === 'owner'} />
          <Wallets eventId={eventId} />
        </div>
      )}
    </>
  );
}
