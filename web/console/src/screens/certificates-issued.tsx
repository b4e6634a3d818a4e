/**
 * The certificates screen's lower half: a run that issues certificates
 * (`POST /editions/{edition_id}/certificates/issue`, a background job) with its progress bar fed by
 * `GET /jobs/{job_id}` every half second until it ends; and the issued certificates
 * (`GET /editions/{edition_id}/certificates`, searched by the holder's name or e-mail, filtered by
 * status, paged by the service), each with its verification page and, while valid, a revocation
 * with a reason (`POST /certificates/{certificate_id}/revoke`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api, type Schemas, unwrap } from '../api.ts';
import { ConfirmButton } from '../confirm.tsx';
import { useI18n } from '../i18n.tsx';
import { Paging, unwrapPage } from '../paging.tsx';
import { ErrorNotice, formValues, Notice, Pending, SearchField } from '../ui.tsx';

type Certificate = Schemas['Certificate'];
type Status = Certificate['status'];
const LIMIT = 20;
/** How often a running job is read. */
const JOB_EVERY_MS = 500;

export function IssueRun({ editionId }: { editionId: string }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const [jobId, setJobId] = useState<string | null>(null);
  const issue = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/editions/{edition_id}/certificates/issue', {
          params: { path: { edition_id: editionId } },
          body: {},
        }),
      ),
    onSuccess: (accepted) => setJobId(accepted.job_id),
  });
  const job = useQuery({
    queryKey: ['job', jobId],
    queryFn: async () => {
      const answer = await unwrap(api.GET('/jobs/{job_id}', { params: { path: { job_id: jobId ?? '' } } }));
      // The route answers every kind of job; the one started here is a certificate run.
      if (answer.kind !== 'certificates.issue') throw new Error(`not a certificate run: ${answer.kind}`);
      const read = answer;
      if (read.status === 'completed') {
        void queries.invalidateQueries({ queryKey: ['certificates', editionId] });
      }
      return read;
    },
    enabled: jobId !== null,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'completed' || status === 'failed' ? false : JOB_EVERY_MS;
    },
  });
  const running = job.data !== undefined && (job.data.status === 'queued' || job.data.status === 'running');
  const read = job.data;
  const ended = read?.status === 'completed';
  const percent =
    read === undefined
      ? 0
      : read.total === 0
        ? ended
          ? 100
          : 0
        : Math.round((read.done / read.total) * 100);
  return (
    <section class="card" aria-labelledby="issue">
      <h2 id="issue">{t('issue')}</h2>
      <p class="hint">{t('issueHint')}</p>
      {issue.isError ? <ErrorNotice error={issue.error} /> : null}
      <div class="actions">
        <button type="button" disabled={issue.isPending || running} onClick={() => issue.mutate()}>
          {t('issueCertificates')}
        </button>
      </div>
      {jobId === null ? null : read === undefined ? (
        <Pending query={job} />
      ) : (
        <div class="issue-progress" data-status={read.status} data-percent={percent}>
          <label for="issue-bar">{t('issueProgress')}</label>
          <progress id="issue-bar" max={100} value={percent}>
            {percent} %
          </progress>
          <span> {percent} %</span>
          <p class="muted">
            {t('issueCounts', {
              done: read.done,
              total: read.total,
              issued: read.issued,
              skipped: read.skipped,
              errors: read.errors,
            })}
          </p>
          <p role="status">
            {read.status === 'failed'
              ? t('job_failed', { error: read.last_error ?? '' })
              : t(`job_${read.status}`)}
          </p>
        </div>
      )}
    </section>
  );
}

function RevokeButton({ item, onDone }: { item: Certificate; onDone: () => void }) {
  const { t } = useI18n();
  const revoke = useMutation({
    mutationFn: (reason: string) =>
      unwrap(
        api.POST('/certificates/{certificate_id}/revoke', {
          params: { path: { certificate_id: item.id } },
          body: { reason },
        }),
      ),
    onSuccess: onDone,
  });
  return (
    <>
      {revoke.isError ? <ErrorNotice error={revoke.error} /> : null}
      <ConfirmButton
        label={t('revoke')}
        accessibleLabel={t('revokeOf', { who: item.holder_name })}
        question={t('revokeConfirm', { who: item.holder_name, name: item.certificate_name })}
        disabled={revoke.isPending}
        danger
        onConfirm={(values) => {
          if (values.reason) revoke.mutate(values.reason);
        }}
      >
        <div class="field">
          <label for={`revoke-reason-${item.id}`}>{t('revokeReason')}</label>
          <input id={`revoke-reason-${item.id}`} name="reason" required maxLength={500} />
        </div>
      </ConfirmButton>
    </>
  );
}

export function IssuedCertificates({ editionId }: { editionId: string }) {
  const { t, when } = useI18n();
  const queries = useQueryClient();
  const [filters, setFilters] = useState<{ q?: string; status?: Status }>({});
  const [page, setPage] = useState(1);
  const [revoked, setRevoked] = useState(false);
  const list = useQuery({
    queryKey: ['certificates', editionId, filters, page],
    queryFn: () =>
      unwrapPage(
        api.GET('/editions/{edition_id}/certificates', {
          params: { path: { edition_id: editionId }, query: { ...filters, page, limit: LIMIT } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  return (
    <section class="card" aria-labelledby="issued">
      <h2 id="issued">{t('issued')}</h2>
      <form
        class="filters"
        onSubmit={(submitted) => {
          submitted.preventDefault();
          const values = formValues(submitted);
          setPage(1);
          setRevoked(false);
          setFilters({
            ...(values.q ? { q: values.q } : {}),
            ...(values.status ? { status: values.status as Status } : {}),
          });
        }}
      >
        <SearchField id="certificate-q" />
        <div class="field">
          <label for="certificate-status">{t('status')}</label>
          <select id="certificate-status" name="status">
            <option value="">{t('anyCertificate')}</option>
            <option value="valid">{t('certStatus_valid')}</option>
            <option value="revoked">{t('certStatus_revoked')}</option>
          </select>
        </div>
        <div class="actions">
          <button type="submit">{t('search')}</button>
        </div>
      </form>
      {revoked ? <Notice kind="ok">{t('certificateRevoked')}</Notice> : null}
      {list.data === undefined ? (
        <Pending query={list} />
      ) : list.data.items.length === 0 ? (
        <p>{t('noCertificates')}</p>
      ) : (
        <>
          <ul class="rows certificates">
            {list.data.items.map((item) => (
              <li key={item.id}>
                <div class="item-title">
                  {item.holder_name}{' '}
                  <span class={`tag tag-cert-${item.status}`}>{t(`certStatus_${item.status}`)}</span>
                </div>
                <div class="muted">
                  {item.holder_email} · {item.certificate_name} ·{' '}
                  {t('issuedAt', { when: when(item.issued_at) })}
                </div>
                {item.status === 'revoked' && item.revoked_at ? (
                  <div class="muted">
                    {t('revokedBecause', { when: when(item.revoked_at), reason: item.reason ?? '' })}
                  </div>
                ) : null}
                <div class="actions">
                  <a href={item.verify_url}>{t('verifyLink')}</a>
                  {item.status === 'valid' ? (
                    <RevokeButton
                      item={item}
                      onDone={() => {
                        setRevoked(true);
                        void queries.invalidateQueries({ queryKey: ['certificates', editionId] });
                      }}
                    />
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
          <Paging info={list.data.pagination} onPage={setPage} />
        </>
      )}
    </section>
  );
}
