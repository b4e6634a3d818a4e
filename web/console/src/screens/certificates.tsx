/**
 * `/console/events/{event_id}/editions/{edition_id}/certificates`: an edition's certificates, for
 * owners and admins. Its templates (`GET`/`POST /editions/{edition_id}/certifications/templates`);
 * the signatures collected for them (`GET`/`POST /editions/{edition_id}/signature-requests`, the
 * signatory mailed a link; a waiting request cancelled with `POST /signature-requests/{id}/cancel`);
 * then issuing and the issued certificates (certificates-issued.tsx).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api, type Schemas, unwrap } from '../api.ts';
import { ConfirmButton } from '../confirm.tsx';
import { useI18n } from '../i18n.tsx';
import type { MessageKey } from '../messages.ts';
import { ErrorNotice, Field, fieldError, formValues, Notice, Pending, withoutEmpty } from '../ui.tsx';
import { DesignDetails } from './certificate-design.tsx';
import { IssuedCertificates, IssueRun } from './certificates-issued.tsx';
import { useEditionRoute } from './edition.tsx';
import { canAdmin } from './event.tsx';
import { EditionScreenHead } from './nav.tsx';

type Kind = Schemas['CertificationTemplate']['kind'];
const KINDS: Kind[] = ['edition_attendance', 'program_attendance'];

function Templates({ editionId }: { editionId: string }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const [created, setCreated] = useState(false);
  const templates = useQuery({
    queryKey: ['certification-templates', editionId],
    queryFn: () =>
      unwrap(
        api.GET('/editions/{edition_id}/certifications/templates', {
          params: { path: { edition_id: editionId }, query: { limit: 100 } },
        }),
      ),
  });
  const create = useMutation({
    mutationFn: (body: { kind: Kind; name: string; description?: string }) =>
      unwrap(
        api.POST('/editions/{edition_id}/certifications/templates', {
          params: { path: { edition_id: editionId } },
          body,
        }),
      ),
    onSuccess: () => {
      setCreated(true);
      return queries.invalidateQueries({ queryKey: ['certification-templates', editionId] });
    },
  });
  return (
    <section class="card" aria-labelledby="templates">
      <h2 id="templates">{t('templates')}</h2>
      {templates.data === undefined ? (
        <Pending query={templates} />
      ) : templates.data.length === 0 ? (
        <p>{t('noTemplates')}</p>
      ) : (
        <ul class="rows" id="template-list">
          {templates.data.map((template) => (
            <li key={template.id}>
              <strong>{template.name}</strong>
              <span class="muted">
                {' · '}
                {t(`kind_${template.kind}`)}
              </span>
              {template.description ? <div class="muted">{template.description}</div> : null}
              <DesignDetails template={template} editionId={editionId} />
            </li>
          ))}
        </ul>
      )}
      {created ? <Notice kind="ok">{t('templateCreated')}</Notice> : null}
      <details class="create">
        <summary>{t('newTemplate')}</summary>
        <form
          onSubmit={(submitted) => {
            submitted.preventDefault();
            const form = submitted.currentTarget;
            const values = formValues(submitted);
            setCreated(false);
            create.mutate(
              {
                kind: (values.kind as Kind | undefined) ?? 'edition_attendance',
                name: values.name ?? '',
                ...withoutEmpty({ description: values.description }),
              },
              { onSuccess: () => form.reset() },
            );
          }}
        >
          {create.isError ? <ErrorNotice error={create.error} /> : null}
          <div class="field">
            <label for="template-kind">{t('templateKind')}</label>
            <select id="template-kind" name="kind">
              {KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`kind_${kind}`)}
                </option>
              ))}
            </select>
          </div>
          <Field
            label={t('templateName')}
            name="name"
            maxLength={200}
            error={fieldError(create.error, 'name')}
          />
          <Field
            label={t('templateDescription')}
            name="description"
            optional
            maxLength={2000}
            error={fieldError(create.error, 'description')}
          />
          <div class="actions">
            <button type="submit" disabled={create.isPending}>
              {t('createTemplate')}
            </button>
          </div>
        </form>
      </details>
    </section>
  );
}

function Signatures({ eventId, editionId }: { eventId: string; editionId: string }) {
  const { t, when } = useI18n();
  const queries = useQueryClient();
  const [done, setDone] = useState<MessageKey | null>(null);
  const requests = useQuery({
    queryKey: ['signature-requests', editionId],
    queryFn: () =>
      unwrap(
        api.GET('/editions/{edition_id}/signature-requests', {
          params: { path: { edition_id: editionId }, query: { limit: 100 } },
        }),
      ),
  });
  const changed = (message: MessageKey) => {
    setDone(message);
    return queries.invalidateQueries({ queryKey: ['signature-requests', editionId] });
  };
  const request = useMutation({
    mutationFn: (body: { signatory_name: string; signatory_email: string; signatory_title?: string }) =>
      unwrap(
        api.POST('/editions/{edition_id}/signature-requests', {
          params: { path: { edition_id: editionId } },
          body,
        }),
      ),
    onSuccess: () => changed('signatureRequested'),
  });
  // The request's mail is in the event's mail log: the newest to the signatory, sent again as a copy.
  const resend = useMutation({
    mutationFn: async (email: string) => {
      const mails = await unwrap(
        api.GET('/events/{event_id}/emails', {
          params: { path: { event_id: eventId }, query: { kind: 'signature_request', to: email, limit: 1 } },
        }),
      );
      const latest = mails[0];
      if (latest === undefined) throw new Error(t('signatureMailMissing'));
      return unwrap(api.POST('/emails/{email_id}/resend', { params: { path: { email_id: latest.id } } }));
    },
    onSuccess: () => changed('signatureResent'),
  });
  const cancel = useMutation({
    mutationFn: (requestId: string) =>
      unwrap(
        api.POST('/signature-requests/{request_id}/cancel', { params: { path: { request_id: requestId } } }),
      ),
    onSuccess: () => changed('signatureCancelled'),
  });
  return (
    <section class="card" aria-labelledby="signatures">
      <h2 id="signatures">{t('signatures')}</h2>
      <p class="hint">{t('signaturesHint')}</p>
      {done ? <Notice kind="ok">{t(done)}</Notice> : null}
      {cancel.isError ? <ErrorNotice error={cancel.error} /> : null}
      {resend.isError ? <ErrorNotice error={resend.error} /> : null}
      {requests.data === undefined ? (
        <Pending query={requests} />
      ) : requests.data.length === 0 ? (
        <p>{t('noSignatureRequests')}</p>
      ) : (
        <ul class="rows" id="signature-list">
          {requests.data.map((item) => (
            <li key={item.id}>
              <strong>{item.signatory_name}</strong>{' '}
              <span class={`tag tag-sig-${item.status}`}>{t(`sig_${item.status}`)}</span>
              <div class="muted">
                {[item.signatory_title, item.signatory_email, when(item.created_at)]
                  .filter(Boolean)
                  .join(' · ')}
              </div>
              {item.status === 'pending' ? (
                <div class="actions">
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={t('resendSignatureOf', { who: item.signatory_name })}
                    disabled={resend.isPending}
                    onClick={() => resend.mutate(item.signatory_email)}
                  >
                    {t('resendSignature')}
                  </button>
                  <ConfirmButton
                    label={t('cancel')}
                    accessibleLabel={t('cancelSignatureOf', { who: item.signatory_name })}
                    question={t('cancelSignatureConfirm', { who: item.signatory_name })}
                    disabled={cancel.isPending}
                    danger
                    onConfirm={() => cancel.mutate(item.id)}
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <details class="create">
        <summary>{t('requestSignature')}</summary>
        <form
          onSubmit={(submitted) => {
            submitted.preventDefault();
            const form = submitted.currentTarget;
            const values = formValues(submitted);
            setDone(null);
            request.mutate(
              {
                signatory_name: values.signatory_name ?? '',
                signatory_email: values.signatory_email ?? '',
                ...withoutEmpty({ signatory_title: values.signatory_title }),
              },
              { onSuccess: () => form.reset() },
            );
          }}
        >
          {request.isError ? <ErrorNotice error={request.error} /> : null}
          <Field
            label={t('signatoryName')}
            name="signatory_name"
            maxLength={200}
            error={fieldError(request.error, 'signatory_name')}
          />
          <Field
            label={t('signatoryEmail')}
            name="signatory_email"
            type="email"
            maxLength={320}
            error={fieldError(request.error, 'signatory_email')}
          />
          <Field
            label={t('signatoryTitle')}
            name="signatory_title"
            optional
            maxLength={200}
            error={fieldError(request.error, 'signatory_title')}
          />
          <div class="actions">
            <button type="submit" disabled={request.isPending}>
              {t('requestSignature')}
            </button>
          </div>
        </form>
      </details>
    </section>
  );
}

export function CertificatesScreen() {
  const { t } = useI18n();
  const route = useEditionRoute();
  const { eventId, editionId, role } = route;
  return (
    <>
      <EditionScreenHead route={route} title={t('certificates')} />
      {role === undefined ? null : !canAdmin(role) ? (
        <p>{t('certificatesRestricted')}</p>
      ) : (
        <>
          <Templates editionId={editionId} />
          <Signatures eventId={eventId} editionId={editionId} />
          <IssueRun editionId={editionId} />
          <IssuedCertificates editionId={editionId} />
        </>
      )}
    </>
  );
}
