/**
 * `/console/events/{event_id}/email-templates`: the event's mail templates (docs/reference/mail.md),
 * admin+. One kind at a time: its subject and Liquid body, the built-in one in the chosen language
 * or the event's own version (one for every language); a live preview re-rendered by the service
 * (`POST …/preview`) a moment after the typing stops; save (`PUT`) and restore the built-in
 * (`DELETE`, confirmed first).
 *
 * The preview is drawn as an image. The console's page runs under the pages' strict CSP (no inline
 * style, no frames), and a `srcdoc` frame inherits its parent's policy: a mail's inline styles would
 * be refused (a CSP error each) and it would show unstyled. An SVG image of the mail
 * (`<foreignObject>`, a `data:` URL, which `img-src` allows) is its own document, drawn with its
 * styles, never runs a script and loads nothing, so it is both faithful and inert; the text version
 * beside it is what assistive technology reads.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, unwrap } from '../api.ts';
import { ConfirmButton } from '../confirm.tsx';
import { useI18n } from '../i18n.tsx';
import { LANGUAGES, type Language, MESSAGES, type MessageKey } from '../messages.ts';
import { ErrorNotice, fieldError, Notice, Pending } from '../ui.tsx';
import { canAdmin, useEvent, useRole } from './event.tsx';
import { EventCrumbs } from './nav.tsx';

const PREVIEW_WIDTH = 640;
const PREVIEW_HEIGHT = 1100;
const DEBOUNCE_MS = 400;

const STYLE_TAG = /<(\/?)style\b/gi;
const STYLE_ATTRIBUTE = /(\s)style(\s*=)/gi;
const HIDDEN_TAG = /<(\/?)convene-style\b/g;
const HIDDEN_ATTRIBUTE = /(\s)data-convene-style=/g;

/**
 * The rendered HTML of a mail as an SVG image's `data:` URL (see the module's comment). An image's
 * content must be XML, so the HTML is parsed and serialized as XHTML; but the parser checks the
 * page's CSP, and would refuse (and report) every inline style. So styles are renamed inside the
 * tags before parsing and named back in the XHTML text: nothing styled ever enters this page.
 */
export function mailImage(html: string): string {
  const disguised = html.replace(/<[a-zA-Z/][^>]*>/g, (tag) =>
    tag.replace(STYLE_TAG, '<$1convene-style').replace(STYLE_ATTRIBUTE, '$1data-convene-style$2'),
  );
  const document = new DOMParser().parseFromString(disguised, 'text/html');
  const xhtml = new XMLSerializer()
    .serializeToString(document.documentElement)
    .replace(HIDDEN_TAG, '<$1style')
    .replace(HIDDEN_ATTRIBUTE, '$1style=');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<foreignObject width="100%" height="100%">${xhtml}</foreignObject></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** `value`, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

interface Template {
  kind: string;
  subject: string;
  body: string;
  source: 'default' | 'override';
  variables: Array<{ name: string; description: string; required: boolean }>;
}

function Preview({
  eventId,
  kind,
  language,
  subject,
  body,
}: {
  eventId: string;
  kind: string;
  language: Language;
  subject: string;
  body: string;
}) {
  const { t } = useI18n();
  const draft = useDebounced({ subject, body }, DEBOUNCE_MS);
  const preview = useQuery({
    queryKey: ['email-preview', eventId, kind, language, draft.subject, draft.body],
    queryFn: () =>
      unwrap(
        api.POST('/events/{event_id}/email-templates/{kind}/preview', {
          params: { path: { event_id: eventId, kind } },
          headers: { 'Accept-Language': language },
          body: {
            ...(draft.subject === '' ? {} : { subject: draft.subject }),
            ...(draft.body === '' ? {} : { body: draft.body }),
          },
        }),
      ),
    placeholderData: (previous) => previous,
    retry: false,
  });
  const stale = preview.isFetching || draft.subject !== subject || draft.body !== body;
  return (
    <section class="card preview" aria-labelledby="preview" aria-busy={stale ? 'true' : 'false'}>
      <h2 id="preview">{t('preview')}</h2>
      <p class="hint">{t('previewHint')}</p>
      <p class="muted" role="status">
        {stale ? t('previewUpdating') : ''}
      </p>
      {preview.isError ? (
        <p class="field-error" role="alert">
          {t('previewFailed', {
            message:
              fieldError(preview.error, 'body') ??
              fieldError(preview.error, 'subject') ??
              (preview.error as Error).message,
          })}
        </p>
      ) : null}
      {preview.data ? (
        <>
          <p class="preview-subject">
            <strong>{t('subject')}:</strong> <span data-testid="preview-subject">{preview.data.subject}</span>
          </p>
          <div class="preview-frame">
            <img
              src={mailImage(preview.data.html)}
              alt={t('previewOf', { subject: preview.data.subject })}
              width={PREVIEW_WIDTH}
              height={PREVIEW_HEIGHT}
            />
          </div>
          <details>
            <summary>{t('textVersion')}</summary>
            <pre class="preview-text" data-testid="preview-text">
              {preview.data.text}
            </pre>
          </details>
        </>
      ) : null}
    </section>
  );
}

function Editor({
  eventId,
  template,
  language,
}: {
  eventId: string;
  template: Template;
  language: Language;
}) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const [subject, setSubject] = useState(template.subject);
  const [body, setBody] = useState(template.body);
  const path = { event_id: eventId, kind: template.kind };
  const refresh = () => queries.invalidateQueries({ queryKey: ['email-templates', eventId] });
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/events/{event_id}/email-templates/{kind}', {
          params: { path },
          headers: { 'Accept-Language': language },
          body: { subject, body },
        }),
      ),
    onSuccess: refresh,
  });
  const restore = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/events/{event_id}/email-templates/{kind}', {
          params: { path },
          headers: { 'Accept-Language': language },
        }),
      ),
    onSuccess: (restored) => {
      setSubject(restored.subject);
      setBody(restored.body);
      save.reset();
      return refresh();
    },
  });
  const kindName = t(`mail_${template.kind}` as MessageKey);
  return (
    <div class="grid">
      <section class="card" aria-labelledby="template-form">
        <h2 id="template-form">
          {kindName} <span class={`tag tag-${template.source}`}>{t(`source_${template.source}`)}</span>
        </h2>
        <form
          onSubmit={(submitted) => {
            submitted.preventDefault();
            restore.reset();
            save.mutate();
          }}
        >
          {save.isError ? <ErrorNotice error={save.error} /> : null}
          {save.isSuccess ? <Notice kind="ok">{t('overrideSaved')}</Notice> : null}
          {restore.isError ? <ErrorNotice error={restore.error} /> : null}
          {restore.isSuccess ? <Notice kind="ok">{t('restored')}</Notice> : null}
          <div class="field">
            <label for="template-subject">{t('subject')}</label>
            <input
              id="template-subject"
              name="subject"
              required
              maxLength={200}
              value={subject}
              onInput={(typed) => setSubject(typed.currentTarget.value)}
              aria-invalid={fieldError(save.error, 'subject') ? 'true' : undefined}
              aria-describedby={fieldError(save.error, 'subject') ? 'template-subject-error' : undefined}
            />
            {fieldError(save.error, 'subject') ? (
              <p class="field-error" id="template-subject-error">
                {fieldError(save.error, 'subject')}
              </p>
            ) : null}
          </div>
          <div class="field">
            <label for="template-body">{t('body')}</label>
            <textarea
              id="template-body"
              name="body"
              required
              rows={14}
              spellcheck={false}
              class="code"
              value={body}
              onInput={(typed) => setBody(typed.currentTarget.value)}
              aria-invalid={fieldError(save.error, 'body') ? 'true' : undefined}
              aria-describedby={fieldError(save.error, 'body') ? 'template-body-error' : undefined}
            />
            {fieldError(save.error, 'body') ? (
              <p class="field-error" id="template-body-error">
                {fieldError(save.error, 'body')}
              </p>
            ) : null}
          </div>
          <details>
            <summary>{t('variables')}</summary>
            <ul class="rows">
              {template.variables.map((variable) => (
                <li key={variable.name}>
                  <code>{`{{ ${variable.name} }}`}</code>
                  {variable.required ? <span class="tag">{t('required')}</span> : null} {variable.description}
                </li>
              ))}
            </ul>
          </details>
          <div class="actions">
            <button type="submit" disabled={save.isPending}>
              {t('saveOverride')}
            </button>
            {template.source === 'override' ? (
              <ConfirmButton
                label={t('restoreDefault')}
                question={t('restoreConfirm', { kind: kindName })}
                disabled={restore.isPending}
                onConfirm={() => {
                  save.reset();
                  restore.mutate();
                }}
              />
            ) : null}
          </div>
        </form>
      </section>
      <Preview eventId={eventId} kind={template.kind} language={language} subject={subject} body={body} />
    </div>
  );
}

export function EmailTemplatesScreen() {
  const { t, language } = useI18n();
  const { params } = useRoute();
  const eventId = params.eventId ?? '';
  const event = useEvent(eventId);
  const role = useRole(eventId);
  const [kind, setKind] = useState('registration_confirmed');
  const [mailLanguage, setMailLanguage] = useState<Language>(language);
  const templates = useQuery({
    queryKey: ['email-templates', eventId, mailLanguage],
    queryFn: () =>
      unwrap(
        api.GET('/events/{event_id}/email-templates', {
          params: { path: { event_id: eventId }, query: { limit: 100 } },
          headers: { 'Accept-Language': mailLanguage },
        }),
      ),
    enabled: canAdmin(role),
  });
  const template = templates.data?.find((each) => each.kind === kind) as Template | undefined;
  return (
    <>
      <EventCrumbs eventId={eventId} eventName={event.data?.name} />
      <h1 tabIndex={-1}>{t('emailTemplates')}</h1>
      {role !== undefined && !canAdmin(role) ? <Notice kind="error">{t('forbidden')}</Notice> : null}
      {canAdmin(role) ? (
        <>
          <div class="filters">
            <div class="field">
              <label for="template-kind">{t('template')}</label>
              <select
                id="template-kind"
                value={kind}
                onChange={(picked) => setKind(picked.currentTarget.value)}
              >
                {(templates.data ?? []).map((each) => (
                  <option key={each.kind} value={each.kind}>
                    {t(`mail_${each.kind}` as MessageKey)}
                    {each.source === 'override' ? ` (${t('source_override')})` : ''}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="template-language">{t('previewLanguage')}</label>
              <select
                id="template-language"
                value={mailLanguage}
                aria-describedby="template-language-hint"
                onChange={(picked) => setMailLanguage(picked.currentTarget.value as Language)}
              >
                {LANGUAGES.map((code) => (
                  <option key={code} value={code} lang={code}>
                    {MESSAGES[code].languageName}
                  </option>
                ))}
              </select>
              <p class="hint" id="template-language-hint">
                {t('previewLanguageHint')}
              </p>
            </div>
          </div>
          {template === undefined ? (
            <Pending query={templates} />
          ) : (
            <Editor
              key={`${template.kind}-${mailLanguage}`}
              eventId={eventId}
              template={template}
              language={mailLanguage}
            />
          )}
        </>
      ) : null}
    </>
  );
}
