/**
 * `/console/events/{event_id}/editions/{edition_id}/registrations`: an edition's registrations
 * (`GET /editions/{edition_id}/registrations`, staff+), searched by name or e-mail and filtered by
 * status, ticket type and paid/free, paged by the service; the same selection as CSV (a link to
 * `GET …/registrations.csv`). Owners and admins also see each registration's money and may cancel
 * it (`POST /registrations/{id}/cancel`, which refunds a paid one in full) or refund it
 * (`POST /registrations/{id}/refund`): in full, which ends it, or a part (`amount_cents`), which
 * keeps it; each after a confirmation stating the amount.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api, type Schemas, unwrap } from '../api.ts';
import { ConfirmButton } from '../confirm.tsx';
import { minorDigits, useI18n } from '../i18n.tsx';
import type { MessageKey } from '../messages.ts';
import { Paging, unwrapPage } from '../paging.tsx';
import { ErrorNotice, formValues, Notice, Pending, SearchField } from '../ui.tsx';
import { useEditionRoute, useTicketTypes } from './edition.tsx';
import { canAdmin } from './event.tsx';
import { EditionScreenHead } from './nav.tsx';

type Item = Schemas['RegistrationListItem'];
type Status = Item['status'];
const STATUSES: Status[] = ['confirmed', 'pending_payment', 'cancelled', 'expired', 'refunded'];
const LIMIT = 20;

interface Filters {
  q?: string;
  status?: Status[];
  ticket_type_id?: string;
  paid?: boolean;
}

/** The CSV export's address for the same filters (repeated `status`, as the document says). */
function csvHref(editionId: string, filters: Filters): string {
  const query = new URLSearchParams();
  if (filters.q) query.set('q', filters.q);
  for (const status of filters.status ?? []) query.append('status', status);
  if (filters.ticket_type_id) query.set('ticket_type_id', filters.ticket_type_id);
  if (filters.paid !== undefined) query.set('paid', String(filters.paid));
  const search = query.toString();
  return `/editions/${editionId}/registrations.csv${search ? `?${search}` : ''}`;
}

/** Keyed by what is left where used: after a partial refund it offers the new remainder. */
function RefundButton({ item, onDone }: { item: Item; onDone: (message: MessageKey) => void }) {
  const { t, money } = useI18n();
  const currency = item.currency ?? 'BRL';
  const digits = minorDigits(currency);
  const left = (item.amount_cents ?? 0) - (item.refunded_cents ?? 0);
  const [typed, setTyped] = useState((left / 10 ** digits).toFixed(digits));
  const cents = Math.round(Number(typed) * 10 ** digits);
  const whole = cents === left;
  const who = item.name ?? item.email;
  const refund = useMutation({
    mutationFn: ({ reason }: { reason?: string }) =>
      unwrap(
        api.POST('/registrations/{registration_id}/refund', {
          params: { path: { registration_id: item.id } },
          // Less than what is left is a partial refund; left out, the whole remainder.
          body: { ...(reason ? { reason } : {}), ...(whole ? {} : { amount_cents: cents }) },
        }),
      ),
    onSuccess: () => onDone('refunded'),
  });
  const valid = Number.isFinite(cents) && cents > 0 && cents <= left;
  return (
    <>
      {refund.isError ? <ErrorNotice error={refund.error} /> : null}
      <ConfirmButton
        label={t('refund')}
        accessibleLabel={t('refundOf', { who })}
        question={
          whole || !valid
            ? t('refundConfirm', { amount: money(left, currency), who })
            : t('refundPartConfirm', { amount: money(cents, currency), total: money(left, currency), who })
        }
        disabled={refund.isPending}
        danger
        onConfirm={(values) => {
          if (valid) refund.mutate(values.reason ? { reason: values.reason } : {});
        }}
      >
        <div class="field">
          <label for={`refund-amount-${item.id}`}>
            {t('refundAmount')} ({currency})
          </label>
          <input
            id={`refund-amount-${item.id}`}
            name="amount"
            inputMode="decimal"
            required
            value={typed}
            aria-describedby={`refund-amount-${item.id}-hint`}
            aria-invalid={valid ? undefined : 'true'}
            onInput={(event) => setTyped(event.currentTarget.value)}
          />
          <p class="hint" id={`refund-amount-${item.id}-hint`}>
            {t('refundAmountHint', { amount: money(left, currency) })}
          </p>
        </div>
        <div class="field">
          <label for={`refund-reason-${item.id}`}>
            {t('refundReason')} <span class="muted">{t('optional')}</span>
          </label>
          <input id={`refund-reason-${item.id}`} name="reason" maxLength={500} />
        </div>
      </ConfirmButton>
    </>
  );
}

function CancelButton({ item, onDone }: { item: Item; onDone: (message: MessageKey) => void }) {
  const { t, money } = useI18n();
  const who = item.name ?? item.email;
  const paid = item.status === 'confirmed' && (item.amount_cents ?? 0) > (item.refunded_cents ?? 0);
  const cancel = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/registrations/{registration_id}/cancel', {
          params: { path: { registration_id: item.id } },
        }),
      ),
    onSuccess: () => onDone('cancelled'),
  });
  return (
    <>
      {cancel.isError ? <ErrorNotice error={cancel.error} /> : null}
      <ConfirmButton
        label={t('cancelRegistration')}
        accessibleLabel={t('cancelRegistrationOf', { who })}
        question={
          paid
            ? t('cancelPaidConfirm', {
                who,
                ticket: item.ticket_name,
                amount: money((item.amount_cents ?? 0) - (item.refunded_cents ?? 0), item.currency),
              })
            : t('cancelConfirm', { who, ticket: item.ticket_name })
        }
        disabled={cancel.isPending}
        danger
        onConfirm={() => cancel.mutate()}
      />
    </>
  );
}

export function RegistrationsScreen() {
  const { t, when, money } = useI18n();
  const route = useEditionRoute();
  const { editionId, role, edition } = route;
  const queries = useQueryClient();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const [done, setDone] = useState<MessageKey | null>(null);
  const types = useTicketTypes(editionId);
  const registrations = useQuery({
    queryKey: ['registrations', editionId, filters, page],
    queryFn: () =>
      unwrapPage(
        api.GET('/editions/{edition_id}/registrations', {
          params: { path: { edition_id: editionId }, query: { ...filters, page, limit: LIMIT } },
        }),
      ),
    enabled: role !== undefined,
    placeholderData: (previous) => previous,
  });
  const changed = (message: MessageKey) => {
    setDone(message);
    return queries.invalidateQueries({ queryKey: ['registrations', editionId] });
  };
  return (
    <>
      <EditionScreenHead route={route} title={t('registrations')} />
      <section class="card" aria-labelledby="registration-list">
        <h2 id="registration-list">{edition.data?.name ?? t('registrations')}</h2>
        <form
          class="filters"
          onSubmit={(submitted) => {
            submitted.preventDefault();
            const values = formValues(submitted);
            setPage(1);
            setDone(null);
            setFilters({
              ...(values.q ? { q: values.q } : {}),
              ...(values.status ? { status: [values.status as Status] } : {}),
              ...(values.ticket_type_id ? { ticket_type_id: values.ticket_type_id } : {}),
              ...(values.paid ? { paid: values.paid === 'true' } : {}),
            });
          }}
        >
          <SearchField id="registration-q" />
          <div class="field">
            <label for="registration-status">{t('status')}</label>
            <select id="registration-status" name="status">
              <option value="">{t('anyStatus')}</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`reg_${status}`)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="registration-type">{t('ticketType')}</label>
            <select id="registration-type" name="ticket_type_id">
              <option value="">{t('anyTicketType')}</option>
              {(types.data ?? []).map((type) => (
                <option key={type.id} value={type.id}>
                  {type.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="registration-paid">{t('paidOrFree')}</label>
            <select id="registration-paid" name="paid">
              <option value="">{t('anyPrice')}</option>
              <option value="true">{t('onlyPaid')}</option>
              <option value="false">{t('onlyFree')}</option>
            </select>
          </div>
          <div class="actions">
            <button type="submit">{t('search')}</button>
          </div>
        </form>
        <p>
          <a href={csvHref(editionId, filters)} download>
            {t('downloadCsv')}
          </a>
        </p>
        {done ? <Notice kind="ok">{t(done)}</Notice> : null}
        {registrations.data === undefined ? (
          <Pending query={registrations} />
        ) : registrations.data.items.length === 0 ? (
          <p>{t('noRegistrations')}</p>
        ) : (
          <>
            <ul class="rows registrations">
              {registrations.data.items.map((item) => (
                <li key={item.id}>
                  <div class="item-title">
                    {item.name ?? item.email}{' '}
                    <span class={`tag tag-reg-${item.status}`}>{t(`reg_${item.status}`)}</span>
                  </div>
                  <div class="muted">
                    {item.name ? `${item.email} · ` : ''}
                    {item.ticket_name}
                    {item.amount_cents !== null ? ` · ${money(item.amount_cents, item.currency)}` : ''}
                    {item.refunded_cents
                      ? ` · ${t('refundedPart', { amount: money(item.refunded_cents, item.currency) })}`
                      : ''}
                  </div>
                  <div class="muted">{t('registeredAt', { when: when(item.created_at) })}</div>
                  {canAdmin(role) && (item.status === 'confirmed' || item.status === 'pending_payment') ? (
                    <div class="actions">
                      <CancelButton item={item} onDone={changed} />
                      {item.status === 'confirmed' &&
                      item.intent_id !== null &&
                      (item.amount_cents ?? 0) > (item.refunded_cents ?? 0) ? (
                        <RefundButton
                          key={`${item.id}-${item.refunded_cents}`}
                          item={item}
                          onDone={changed}
                        />
                      ) : null}
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
            <Paging info={registrations.data.pagination} onPage={setPage} />
          </>
        )}
      </section>
    </>
  );
}
