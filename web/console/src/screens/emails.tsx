/**
 * `/console/events/{event_id}/emails`: the event's mail log (`GET /events/{event_id}/emails`,
 * admin+), newest first, filtered by kind, status and recipient and paged by the service: each
 * mail's status, attempts and last error; resend (`POST /emails/{email_id}/resend`) after a
 * confirmation naming the recipient.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, unwrap } from '../api.ts';
import { ConfirmButton } from '../confirm.tsx';
import { useI18n } from '../i18n.tsx';
import type { MessageKey } from '../messages.ts';
import { Paging, unwrapPage } from '../paging.tsx';
import { ErrorNotice, formValues, Notice, Pending } from '../ui.tsx';
import { canAdmin, useEvent, useRole } from './event.tsx';
import { EventCrumbs } from './nav.tsx';

const KINDS = [
  'registration_confirmed',
  'refund_issued',
  'event_invitation',
  'signature_request',
  'certificate_issued',
] as const;
const STATUSES = ['queued', 'sent', 'failed'] as const;
const LIMIT = 20;

interface Filters {
  kind?: (typeof KINDS)[number];
  status?: (typeof STATUSES)[number];
  to?: string;
}

export function EmailsScreen() {
  const { t, when } = useI18n();
  const { params } = useRoute();
  const eventId = params.eventId ?? '';
  const event = useEvent(eventId);
  const role = useRole(eventId);
  const queries = useQueryClient();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const mails = useQuery({
    queryKey: ['emails', eventId, filters, page],
    queryFn: () =>
      unwrapPage(
        api.GET('/events/{event_id}/emails', {
          params: { path: { event_id: eventId }, query: { ...filters, page, limit: LIMIT } },
        }),
      ),
    enabled: canAdmin(role),
    placeholderData: (previous) => previous,
  });
  const resend = useMutation({
    mutationFn: (emailId: string) =>
      unwrap(api.POST('/emails/{email_id}/resend', { params: { path: { email_id: emailId } } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['emails', eventId] }),
  });
  return (
    <>
      <EventCrumbs eventId={eventId} eventName={event.data?.name} />
      <h1 tabIndex={-1}>{t('mailLog')}</h1>
      {role !== undefined && !canAdmin(role) ? <Notice kind="error">{t('forbidden')}</Notice> : null}
      {canAdmin(role) ? (
        <section class="card" aria-labelledby="mail-list">
          <h2 id="mail-list">{event.data?.name ?? t('mailLog')}</h2>
          <form
            class="filters"
            onSubmit={(submitted) => {
              submitted.preventDefault();
              const values = formValues(submitted);
              setPage(1);
              setFilters({
                ...(values.kind ? { kind: values.kind as Filters['kind'] } : {}),
                ...(values.status ? { status: values.status as Filters['status'] } : {}),
                ...(values.to ? { to: values.to } : {}),
              });
            }}
          >
            <div class="field">
              <label for="mail-kind">{t('template')}</label>
              <select id="mail-kind" name="kind">
                <option value="">{t('anyKind')}</option>
                {KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`mail_${kind}`)}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="mail-status">{t('status')}</label>
              <select id="mail-status" name="status">
                <option value="">{t('anyStatus')}</option>
                {STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {t(`mail_${status}`)}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="mail-to">
                {t('to')} <span class="muted">{t('optional')}</span>
              </label>
              <input id="mail-to" name="to" type="email" autoComplete="off" />
            </div>
            <div class="actions">
              <button type="submit">{t('filter')}</button>
            </div>
          </form>
          {resend.isError ? <ErrorNotice error={resend.error} /> : null}
          {resend.isSuccess ? <Notice kind="ok">{t('resent')}</Notice> : null}
          {mails.data === undefined ? (
            <Pending query={mails} />
          ) : mails.data.items.length === 0 ? (
            <p>{t('noMails')}</p>
          ) : (
            <>
              <ul class="rows mails">
                {mails.data.items.map((mail) => (
                  <li key={mail.id}>
                    <div class="item-title">
                      {mail.subject ?? t('noSubjectYet')}{' '}
                      <span class={`tag tag-mail-${mail.status}`}>
                        {t(`mail_${mail.status}` as MessageKey)}
                      </span>
                    </div>
                    <div class="muted">
                      {t(`mail_${mail.kind}` as MessageKey)} · {t('to')}: {mail.to}
                      {mail.resent_from ? ` · ${t('resentFrom')}` : ''}
                    </div>
                    <div class="muted">
                      {mail.sent_at
                        ? t('sentAt', { when: when(mail.sent_at) })
                        : t('createdAt', { when: when(mail.created_at) })}{' '}
                      · {t('attempts', { count: mail.attempts })}
                    </div>
                    {mail.last_error ? (
                      <div class="field-error">{t('lastError', { error: mail.last_error })}</div>
                    ) : null}
                    <ConfirmButton
                      label={t('resend')}
                      accessibleLabel={t('resendTo', { to: mail.to })}
                      question={t('resendConfirm', {
                        subject: mail.subject ?? t(`mail_${mail.kind}` as MessageKey),
                        to: mail.to,
                      })}
                      disabled={resend.isPending}
                      onConfirm={() => resend.mutate(mail.id)}
                    />
                  </li>
                ))}
              </ul>
              <Paging info={mails.data.pagination} onPage={setPage} />
            </>
          )}
        </section>
      ) : null}
    </>
  );
}
