/**
 * `/console/events/{event_id}/editions/{edition_id}/sales`: an edition's sales summary
 * (`GET /editions/{edition_id}/sales`, owners and admins): registrations sold (paid and free), held,
 * cancelled, expired, refunded; per currency the payments, revenue, refunds, platform fees and
 * net; the same per ticket type. Staff are not offered this screen; opened anyway, the service
 * refuses them (`sales_restricted`) and the screen says whose it is.
 */
import { useQuery } from '@tanstack/preact-query';
import { api, type Schemas, unwrap } from '../api.ts';
import { minorDigits, useI18n } from '../i18n.tsx';
import { Notice, Pending } from '../ui.tsx';
import { useEditionRoute } from './edition.tsx';
import { canAdmin } from './event.tsx';
import { EditionScreenHead } from './nav.tsx';

function Counts({ counts, id }: { counts: Schemas['SalesCounts']; id: string }) {
  const { t } = useI18n();
  return (
    <dl class="figures" id={id}>
      <div>
        <dt>{t('sold')}</dt>
        <dd>
          {counts.sold}{' '}
          <span class="muted">
            ({counts.sold_paid} {t('soldPaid')}, {counts.sold_free} {t('soldFree')})
          </span>
        </dd>
      </div>
      <div>
        <dt>{t('held')}</dt>
        <dd>{counts.held}</dd>
      </div>
      <div>
        <dt>{t('countCancelled')}</dt>
        <dd>{counts.cancelled}</dd>
      </div>
      <div>
        <dt>{t('countExpired')}</dt>
        <dd>{counts.expired}</dd>
      </div>
      <div>
        <dt>{t('countRefunded')}</dt>
        <dd>{counts.refunded}</dd>
      </div>
    </dl>
  );
}

function Money({ money: entries }: { money: Array<Schemas['SalesMoney']> }) {
  const { t, language } = useI18n();
  // Sums, not prices: nothing refunded is R$ 0.00, not "Free" as `money` says of a price.
  const money = (cents: number, currency: string) =>
    new Intl.NumberFormat(language, { style: 'currency', currency }).format(
      cents / 10 ** minorDigits(currency),
    );
  if (entries.length === 0) return <p class="muted">{t('noPayments')}</p>;
  return (
    <>
      {entries.map((entry) => (
        <dl class="figures" key={entry.currency} aria-label={`${t('money')} (${entry.currency})`}>
          <div>
            <dt>{t('payments')}</dt>
            <dd>{entry.payments}</dd>
          </div>
          <div>
            <dt>{t('revenue')}</dt>
            <dd>{money(entry.revenue_cents, entry.currency)}</dd>
          </div>
          <div>
            <dt>{t('refunds')}</dt>
            <dd>{money(entry.refunds_cents, entry.currency)}</dd>
          </div>
          <div>
            <dt>{t('fees')}</dt>
            <dd>{money(entry.fees_cents, entry.currency)}</dd>
          </div>
          <div>
            <dt>{t('net')}</dt>
            <dd>{money(entry.net_cents, entry.currency)}</dd>
          </div>
        </dl>
      ))}
    </>
  );
}

export function SalesScreen() {
  const { t, when, money } = useI18n();
  const route = useEditionRoute();
  const { editionId, role, edition } = route;
  const sales = useQuery({
    queryKey: ['sales', editionId],
    queryFn: () =>
      unwrap(api.GET('/editions/{edition_id}/sales', { params: { path: { edition_id: editionId } } })),
    enabled: canAdmin(role),
  });
  return (
    <>
      <EditionScreenHead route={route} title={t('salesSummary')} />
      {role !== undefined && !canAdmin(role) ? <Notice kind="error">{t('salesRestricted')}</Notice> : null}
      {canAdmin(role) ? (
        sales.data === undefined ? (
          <Pending query={sales} />
        ) : (
          <div class="grid">
            <section class="card" aria-labelledby="sales-all">
              <h2 id="sales-all">{edition.data?.name ?? t('sales')}</h2>
              <Counts counts={sales.data.counts} id="sales-counts" />
              <h3>{t('money')}</h3>
              <Money money={sales.data.money} />
              <p class="muted">{t('computedAt', { when: when(sales.data.computed_at) })}</p>
            </section>
            <section class="card" aria-labelledby="sales-types">
              <h2 id="sales-types">{t('perTicketType')}</h2>
              <ul class="rows">
                {sales.data.ticket_types.map((type) => (
                  <li key={type.ticket_type_id}>
                    <h3>
                      {type.name} <span class="muted">{money(type.price_cents, type.currency)}</span>
                    </h3>
                    <Counts counts={type.counts} id={`sales-${type.ticket_type_id}`} />
                    <Money money={type.money} />
                  </li>
                ))}
              </ul>
            </section>
          </div>
        )
      ) : null}
    </>
  );
}
