/**
 * A certificate template's design, edited with its PDF preview following (docs/console.md,
 * "Certificates"). The fields are the `design_data` hints the certificate page draws (title,
 * subtitle, body, whether to show the description, three colours) with the name and description;
 * other keys the template holds are kept as they are. Each change, once typing pauses, is drawn by
 * `POST /certifications/templates/{template_id}/preview` (nothing saved) and shown in a frame from
 * a `blob:` address, which the console's CSP allows frames from and nothing else; "Save" sends
 * them with `PATCH /certifications/templates/{template_id}`.
 */
import { useMutation, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useState } from 'preact/hooks';
import { api, refusalOf, type Schemas, unwrap } from '../api.ts';
import { useI18n } from '../i18n.tsx';
import { ErrorNotice, Field, Notice } from '../ui.tsx';

type Template = Schemas['CertificationTemplate'];

/** Typing pauses this long before the preview is drawn again. */
const PREVIEW_AFTER_MS = 600;

interface Draft {
  name: string;
  description: string;
  title: string;
  subtitle: string;
  body: string;
  showDescription: boolean;
  accent: string;
  text: string;
  background: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
/** A `#RGB` or `#RRGGBB` hint as a colour input's `#rrggbb`, else the page's own default. */
function colour(value: unknown, fallback: string): string {
  if (typeof value !== 'string') return fallback;
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  return short
    ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase()
    : fallback;
}

function draftOf(template: Template): Draft {
  const design = template.design_data;
  return {
    name: template.name,
    description: template.description ?? '',
    title: text(design.title),
    subtitle: text(design.subtitle),
    body: text(design.body),
    showDescription: design.show_description !== false,
    accent: colour(design.accent_color, '#1e3a5f'),
    text: colour(design.text_color, '#1c1c1c'),
    background: colour(design.background_color, '#ffffff'),
  };
}

/** The template's fields as the API takes them: empty texts leave the page's defaults. */
function fieldsOf(template: Template, draft: Draft) {
  const design: Record<string, unknown> = { ...template.design_data };
  for (const [key, value] of [
    ['title', draft.title],
    ['subtitle', draft.subtitle],
    ['body', draft.body],
  ] as const) {
    if (value.trim() === '') delete design[key];
    else design[key] = value;
  }
  design.show_description = draft.showDescription;
  design.accent_color = draft.accent;
  design.text_color = draft.text;
  design.background_color = draft.background;
  return {
    name: draft.name.trim(),
    description: draft.description.trim() === '' ? null : draft.description.trim(),
    design_data: design,
  };
}

/** The preview of `fields`, drawn by the service; its `blob:` address, revoked when replaced. */
function usePreview(templateId: string, fields: ReturnType<typeof fieldsOf>) {
  const [address, setAddress] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const key = JSON.stringify(fields);
  useEffect(() => {
    let current = true;
    let made: string | null = null;
    const timer = window.setTimeout(async () => {
      try {
        const {
          data: pdf,
          error: refused,
          response,
        } = await api.POST('/certifications/templates/{template_id}/preview', {
          params: { path: { template_id: templateId } },
          body: JSON.parse(key) as ReturnType<typeof fieldsOf>,
          parseAs: 'blob',
        });
        if (!response.ok || pdf === undefined) throw refusalOf(response, refused);
        if (!current) return;
        made = URL.createObjectURL(pdf);
        setAddress(made);
        setError(null);
      } catch (failed) {
        if (current) setError(failed);
      }
    }, PREVIEW_AFTER_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
      // The frame still shows the previous drawing until the next is ready; then it goes.
      if (made !== null) window.setTimeout(() => URL.revokeObjectURL(made as string), 60_000);
    };
  }, [templateId, key]);
  return { address, error };
}

function CertificateDesign({
  template,
  editionId,
  saved,
  setSaved,
}: {
  template: Template;
  editionId: string;
  /** Kept by the caller: a save remounts this designer on the template as stored. */
  saved: boolean;
  setSaved: (saved: boolean) => void;
}) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(template));
  const fields = fieldsOf(template, draft);
  const preview = usePreview(template.id, fields);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/certifications/templates/{template_id}', {
          params: { path: { template_id: template.id } },
          body: fields,
        }),
      ),
    onSuccess: () => {
      setSaved(true);
      return queries.invalidateQueries({ queryKey: ['certification-templates', editionId] });
    },
  });
  const set = (key: keyof Draft) => (event: { currentTarget: { value: string } }) => {
    setSaved(false);
    setDraft((was) => ({ ...was, [key]: event.currentTarget.value }));
  };
  const id = (name: string) => `design-${template.id}-${name}`;
  return (
    <div class="design">
      <form
        onSubmit={(submitted) => {
          submitted.preventDefault();
          save.mutate();
        }}
      >
        {save.isError ? <ErrorNotice error={save.error} /> : null}
        <Field
          label={t('templateName')}
          name="name"
          maxLength={200}
          value={draft.name}
          onInput={set('name')}
        />
        <Field
          label={t('templateDescription')}
          name="description"
          optional
          maxLength={2000}
          value={draft.description}
          onInput={set('description')}
        />
        <Field
          label={t('designTitle')}
          name="title"
          optional
          maxLength={120}
          hint={t('designDefaultHint')}
          value={draft.title}
          onInput={set('title')}
        />
        <Field
          label={t('designSubtitle')}
          name="subtitle"
          optional
          maxLength={160}
          value={draft.subtitle}
          onInput={set('subtitle')}
        />
        <div class="field">
          <label for={id('body')}>
            {t('designBody')} <span class="muted">{t('optional')}</span>
          </label>
          <textarea
            id={id('body')}
            name="body"
            rows={3}
            maxLength={600}
            value={draft.body}
            aria-describedby={`${id('body')}-hint`}
            onInput={set('body')}
          />
          <p class="hint" id={`${id('body')}-hint`}>
            {t('designBodyHint')}
          </p>
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={draft.showDescription}
            onChange={(event) => {
              setSaved(false);
              setDraft((was) => ({ ...was, showDescription: event.currentTarget.checked }));
            }}
          />
          {t('designShowDescription')}
        </label>
        <div class="colours">
          {(
            [
              ['accent', 'designAccent'],
              ['text', 'designText'],
              ['background', 'designBackground'],
            ] as const
          ).map(([key, label]) => (
            <div class="field" key={key}>
              <label for={id(key)}>{t(label)}</label>
              <input id={id(key)} type="color" value={draft[key]} onInput={set(key)} />
            </div>
          ))}
        </div>
        {saved ? <Notice kind="ok">{t('designSaved')}</Notice> : null}
        <div class="actions">
          <button type="submit" disabled={save.isPending || draft.name.trim() === ''}>
            {t('designSave')}
          </button>
          {preview.address === null ? null : (
            <a href={preview.address} target="_blank" rel="noopener">
              {t('designOpenPreview')}
            </a>
          )}
        </div>
      </form>
      <div class="preview" aria-busy={preview.address === null && preview.error === null}>
        {preview.error !== null ? <ErrorNotice error={preview.error} /> : null}
        {preview.address === null ? (
          <p class="muted">{t('designDrawing')}</p>
        ) : (
          <iframe
            src={preview.address}
            title={t('designPreview', { name: draft.name })}
            data-preview={preview.address}
          />
        )}
      </div>
    </div>
  );
}

/**
 * The design under a template's entry, opened on demand: nothing is drawn until it is open. Saved,
 * the designer starts again from the template as stored (its `updated_at` keys it).
 */
export function DesignDetails({ template, editionId }: { template: Template; editionId: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState(false);
  return (
    <details class="create" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('design', { name: template.name })}</summary>
      {open ? (
        <CertificateDesign
          key={template.updated_at}
          template={template}
          editionId={editionId}
          saved={saved}
          setSaved={setSaved}
        />
      ) : null}
    </details>
  );
}
