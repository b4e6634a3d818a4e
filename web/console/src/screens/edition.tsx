/**
 * `/console/events/{event_id}/editions/{edition_id}`: one edition. Its details — dates, venue,
 * images by address (`PATCH /events/{event_id}/editions/{edition_id}`) — and publishing, its ticket
 * types, free or paid (`/editions/{edition_id}/ticket-types`), and its programs
 * (`/editions/{edition_id}/programs`). Staff see it read-only.
 *
 * Image addresses are shown as links, not images: the console's CSP loads images from this origin
 * only, and an organiser's banner lives elsewhere.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type Edition, type Schemas, toInstant, toLocalInput, unwrap } from '../api.ts';
import { ConfirmButton } from '../confirm.tsx';
import { minorDigits, useI18n } from '../i18n.tsx';
import { ErrorNotice, Field, fieldError, formValues, Notice, orNull, Pending, withoutEmpty } from '../ui.tsx';
import { canAdmin, useEvent, useRole } from './event.tsx';
import { EditionSellNav } from './nav.tsx';

/** Currencies offered for paid tickets (Mercado Pago's markets first); the API takes any ISO 4217 code. */
const CURRENCIES = ['BRL', 'ARS', 'CLP', 'COP', 'MXN', 'PEN', 'UYU', 'USD', 'EUR'];

/** The edition (`GET /editions/{edition_id}`), cached under one key by every screen that reads it. */
export function useEdition(editionId: string) {
  return useQuery({
    queryKey: ['edition', editionId],
    queryFn: () => unwrap(api.GET('/editions/{edition_id}', { params: { path: { edition_id: editionId } } })),
  });
}

/** The edition's ticket types (at most 100: the console's lists of an edition's own things). */
export function useTicketTypes(editionId: string) {
  return useQuery({
    queryKey: ['ticket-types', editionId],
    queryFn: () =>
      unwrap(
        api.GET('/editions/{edition_id}/ticket-types', {
          params: { path: { edition_id: editionId }, query: { limit: 100 } },
        }),
      ),
  });
}

/** The edition's programs (at most 100, as its other lists). */
export function usePrograms(editionId: string) {
  return useQuery({
    queryKey: ['programs', editionId],
    queryFn: () =>
      unwrap(
        api.GET('/editions/{edition_id}/programs', {
          params: { path: { edition_id: editionId }, query: { limit: 100 } },
        }),
      ),
  });
}

/** What every screen of an edition starts from: the address's ids, the event, the caller's role, the edition. */
export function useEditionRoute() {
  const { params } = useRoute();
  const eventId = params.eventId ?? '';
  const editionId = params.editionId ?? '';
  return {
    eventId,
    editionId,
    event: useEvent(eventId),
    role: useRole(eventId),
    edition: useEdition(editionId),
  };
}

type EditionChanges = {
  name: string;
  tagline: string | null;
  starts_at: string;
  ends_at: string;
  registration_opens_at: string | null;
  location_name: string | null;
  location_description: string | null;
  logo_url: string | null;
  banner_url: string | null;
};

function EditionDetails({ edition, editable }: { edition: Edition; editable: boolean }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const path = { event_id: edition.event_id, edition_id: edition.id };
  const settle = (saved: Edition) => {
    queries.setQueryData(['edition', edition.id], saved);
    return queries.invalidateQueries({ queryKey: ['editions', edition.event_id] });
  };
  const save = useMutation({
    mutationFn: (body: EditionChanges) =>
      unwrap(api.PATCH('/events/{event_id}/editions/{edition_id}', { params: { path }, body })),
    onSuccess: settle,
  });
  const publish = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/events/{event_id}/editions/{edition_id}/publish', { params: { path } })),
    onSuccess: settle,
  });
  const error = (name: string) => fieldError(save.error, name);
  return (
    <section class="card" aria-labelledby="edition-details">
      <h2 id="edition-details">{t('editionDetails')}</h2>
      <form
        onSubmit={(submitted) => {
          submitted.preventDefault();
          const values = formValues(submitted);
          save.mutate({
            name: values.name ?? '',
            tagline: orNull(values.tagline),
            starts_at: toInstant(values.starts_at ?? '') ?? '',
            ends_at: toInstant(values.ends_at ?? '') ?? '',
            registration_opens_at: toInstant(values.registration_opens_at ?? ''),
            location_name: orNull(values.location_name),
            location_description: orNull(values.location_description),
            logo_url: orNull(values.logo_url),
            banner_url: orNull(values.banner_url),
          });
        }}
      >
        <fieldset disabled={!editable}>
          {save.isError ? <ErrorNotice error={save.error} /> : null}
          {save.isSuccess ? <Notice kind="ok">{t('saved')}</Notice> : null}
          <Field
            label={t('name')}
            name="name"
            defaultValue={edition.name}
            maxLength={200}
            error={error('name')}
          />
          <Field
            label={t('tagline')}
            name="tagline"
            optional
            defaultValue={edition.tagline ?? ''}
            error={error('tagline')}
          />
          <div class="pair">
            <Field
              label={t('startsAt')}
              name="starts_at"
              type="datetime-local"
              defaultValue={toLocalInput(edition.starts_at)}
              error={error('starts_at')}
            />
            <Field
              label={t('endsAt')}
              name="ends_at"
              type="datetime-local"
              defaultValue={toLocalInput(edition.ends_at)}
              error={error('ends_at')}
            />
          </div>
          <Field
            label={t('opensAt')}
            name="registration_opens_at"
            type="datetime-local"
            optional
            defaultValue={toLocalInput(edition.registration_opens_at)}
            error={error('registration_opens_at')}
          />
          <Field
            label={t('venue')}
            name="location_name"
            optional
            defaultValue={edition.location_name ?? ''}
            error={error('location_name')}
          />
          <Field
            label={t('venueDetails')}
            name="location_description"
            optional
            defaultValue={edition.location_description ?? ''}
            error={error('location_description')}
          />
          <Field
            label={t('logoUrl')}
            name="logo_url"
            type="url"
            optional
            defaultValue={edition.logo_url ?? ''}
            error={error('logo_url')}
          />
          <Field
            label={t('bannerUrl')}
            name="banner_url"
            type="url"
            optional
            defaultValue={edition.banner_url ?? ''}
            error={error('banner_url')}
          />
          {editable ? (
            <button type="submit" disabled={save.isPending}>
              {t('save')}
            </button>
          ) : null}
        </fieldset>
      </form>
      {editable && edition.is_draft ? (
        <div class="publish">
          <p class="hint">{t('publishEditionHint')}</p>
          {publish.isError ? <ErrorNotice error={publish.error} /> : null}
          <button type="button" onClick={() => publish.mutate()} disabled={publish.isPending}>
            {t('publishEdition')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

type NewTicketType = {
  name: string;
  price_cents: number;
  currency?: string;
  access_level: number;
  max_quantity?: number;
};

function TicketTypes({ editionId, editable }: { editionId: string; editable: boolean }) {
  const { t, money } = useI18n();
  const queries = useQueryClient();
  const [isPaid, setPaid] = useState(false);
  const path = { edition_id: editionId };
  const types = useTicketTypes(editionId);
  const create = useMutation({
    mutationFn: (body: NewTicketType) =>
      unwrap(api.POST('/editions/{edition_id}/ticket-types', { params: { path }, body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['ticket-types', editionId] }),
  });
  return (
    <section class="card" aria-labelledby="ticket-types">
      <h2 id="ticket-types">{t('ticketTypes')}</h2>
      {types.data === undefined ? (
        <Pending query={types} />
      ) : types.data.length === 0 ? (
        <p>{t('noTicketTypes')}</p>
      ) : (
        <ul class="rows">
          {types.data.map((type) => (
            <li key={type.id}>
              <strong>{type.name}</strong>
              <span class="muted">
                {' · '}
                {t('ticketSummary', {
                  price: money(type.price_cents, type.currency),
                  level: type.access_level,
                  sold: type.confirmed_count,
                  capacity: type.max_quantity ?? t('unlimited'),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {editable ? (
        <details class="create">
          <summary>{t('newTicketType')}</summary>
          <form
            onSubmit={(submitted) => {
              submitted.preventDefault();
              const form = submitted.currentTarget;
              const values = formValues(submitted);
              const currency = values.currency ?? 'BRL';
              const price = isPaid
                ? Math.round(Number(values.price ?? '0') * 10 ** minorDigits(currency))
                : 0;
              create.mutate(
                {
                  name: values.name ?? '',
                  price_cents: price,
                  access_level: Number(values.access_level ?? '0'),
                  ...(isPaid ? { currency } : {}),
                  ...withoutEmpty({
                    max_quantity: values.max_quantity ? Number(values.max_quantity) : undefined,
                  }),
                },
                {
                  onSuccess: () => {
                    form.reset();
                    setPaid(false);
                  },
                },
              );
            }}
          >
            {create.isError ? <ErrorNotice error={create.error} /> : null}
            <Field label={t('name')} name="name" maxLength={200} error={fieldError(create.error, 'name')} />
            <fieldset class="choice">
              <legend>{t('pricing')}</legend>
              <label>
                <input
                  type="radio"
                  name="pricing"
                  value="free"
                  checked={!isPaid}
                  onChange={() => setPaid(false)}
                />{' '}
                {t('free')}
              </label>
              <label>
                <input
                  type="radio"
                  name="pricing"
                  value="paid"
                  checked={isPaid}
                  onChange={() => setPaid(true)}
                />{' '}
                {t('paid')}
              </label>
            </fieldset>
            {isPaid ? (
              <div class="pair">
                <Field
                  label={t('price')}
                  name="price"
                  type="number"
                  min="0.01"
                  step="0.01"
                  inputMode="decimal"
                  error={fieldError(create.error, 'price_cents')}
                />
                <div class="field">
                  <label for="ticket-currency">{t('currency')}</label>
                  <select id="ticket-currency" name="currency">
                    {CURRENCIES.map((code) => (
                      <option key={code} value={code}>
                        {code}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
            ) : null}
            <div class="pair">
              <Field
                label={t('capacity')}
                name="max_quantity"
                type="number"
                min="1"
                step="1"
                optional
                hint={t('capacityHint')}
                error={fieldError(create.error, 'max_quantity')}
              />
              <Field
                label={t('accessLevel')}
                name="access_level"
                type="number"
                min="0"
                step="1"
                defaultValue="0"
                hint={t('accessLevelHint')}
                error={fieldError(create.error, 'access_level')}
              />
            </div>
            <button type="submit" disabled={create.isPending}>
              {t('create')}
            </button>
          </form>
        </details>
      ) : null}
    </section>
  );
}

type Program = Schemas['Program'];

/** A program of the schedule; for owners and admins, its changes (`PATCH`) and its removal (`DELETE`). */
function ProgramRow({
  program,
  edition,
  editable,
}: {
  program: Program;
  edition: Edition;
  editable: boolean;
}) {
  const { t, when } = useI18n();
  const queries = useQueryClient();
  const [done, setDone] = useState(false);
  const path = { program_id: program.id };
  const refresh = () => queries.invalidateQueries({ queryKey: ['programs', edition.id] });
  const save = useMutation({
    mutationFn: (body: {
      name: string;
      starts_at: string | null;
      ends_at: string | null;
      location: string | null;
    }) => unwrap(api.PATCH('/programs/{program_id}', { params: { path }, body })),
    onSuccess: () => {
      setDone(true);
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/programs/{program_id}', { params: { path } })),
    onSuccess: refresh,
  });
  return (
    <li>
      <strong>{program.name}</strong>
      <span class="muted">
        {' · '}
        {t(`kind_${program.kind}`)} · {program.starts_at ? when(program.starts_at) : t('unscheduled')}
        {program.location ? ` · ${program.location}` : ''}
      </span>
      {editable ? (
        <div class="actions">
          <details class="create">
            <summary aria-label={t('editProgramOf', { name: program.name })}>{t('edit')}</summary>
            <form
              onSubmit={(submitted) => {
                submitted.preventDefault();
                setDone(false);
                const values = formValues(submitted);
                save.mutate({
                  name: values.name ?? '',
                  starts_at: toInstant(values.starts_at ?? ''),
                  ends_at: toInstant(values.ends_at ?? ''),
                  location: orNull(values.location),
                });
              }}
            >
              {save.isError ? <ErrorNotice error={save.error} /> : null}
              {done ? <Notice kind="ok">{t('saved')}</Notice> : null}
              <Field
                label={t('name')}
                name="name"
                maxLength={200}
                defaultValue={program.name}
                error={fieldError(save.error, 'name')}
              />
              <div class="pair">
                <Field
                  label={t('startsAt')}
                  name="starts_at"
                  type="datetime-local"
                  optional
                  defaultValue={program.starts_at ? toLocalInput(program.starts_at) : ''}
                  error={fieldError(save.error, 'starts_at')}
                />
                <Field
                  label={t('endsAt')}
                  name="ends_at"
                  type="datetime-local"
                  optional
                  defaultValue={program.ends_at ? toLocalInput(program.ends_at) : ''}
                  error={fieldError(save.error, 'ends_at')}
                />
              </div>
              <Field
                label={t('location')}
                name="location"
                optional
                defaultValue={program.location ?? ''}
                error={fieldError(save.error, 'location')}
              />
              <button type="submit" disabled={save.isPending}>
                {t('save')}
              </button>
            </form>
          </details>
          {remove.isError ? <ErrorNotice error={remove.error} /> : null}
          <ConfirmButton
            label={t('removeProgram')}
            accessibleLabel={t('removeProgramOf', { name: program.name })}
            question={t('removeProgramConfirm', { name: program.name })}
            disabled={remove.isPending}
            danger
            onConfirm={() => remove.mutate()}
          />
        </div>
      ) : null}
    </li>
  );
}

function Programs({ edition, editable }: { edition: Edition; editable: boolean }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const path = { edition_id: edition.id };
  const programs = usePrograms(edition.id);
  const create = useMutation({
    mutationFn: (body: {
      kind: 'activity' | 'checkpoint';
      name: string;
      starts_at: string | null;
      ends_at: string | null;
      location: string | null;
      max_participants?: number;
    }) => unwrap(api.POST('/editions/{edition_id}/programs', { params: { path }, body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['programs', edition.id] }),
  });
  return (
    <section class="card" aria-labelledby="programs">
      <h2 id="programs">{t('programs')}</h2>
      {programs.data === undefined ? (
        <Pending query={programs} />
      ) : programs.data.length === 0 ? (
        <p>{t('noPrograms')}</p>
      ) : (
        <ul class="rows">
          {programs.data.map((program) => (
            <ProgramRow key={program.id} program={program} edition={edition} editable={editable} />
          ))}
        </ul>
      )}
      {editable ? (
        <details class="create">
          <summary>{t('newProgram')}</summary>
          <form
            onSubmit={(submitted) => {
              submitted.preventDefault();
              const form = submitted.currentTarget;
              const values = formValues(submitted);
              create.mutate(
                {
                  kind: values.kind === 'checkpoint' ? 'checkpoint' : 'activity',
                  name: values.name ?? '',
                  starts_at: toInstant(values.starts_at ?? ''),
                  ends_at: toInstant(values.ends_at ?? ''),
                  location: orNull(values.location),
                  ...withoutEmpty({
                    max_participants: values.max_participants ? Number(values.max_participants) : undefined,
                  }),
                },
                { onSuccess: () => form.reset() },
              );
            }}
          >
            {create.isError ? <ErrorNotice error={create.error} /> : null}
            <Field label={t('name')} name="name" maxLength={200} error={fieldError(create.error, 'name')} />
            <div class="field">
              <label for="program-kind">{t('kind')}</label>
              <select id="program-kind" name="kind">
                <option value="activity">{t('kind_activity')}</option>
                <option value="checkpoint">{t('kind_checkpoint')}</option>
              </select>
            </div>
            <div class="pair">
              <Field
                label={t('startsAt')}
                name="starts_at"
                type="datetime-local"
                optional
                defaultValue={toLocalInput(edition.starts_at)}
                error={fieldError(create.error, 'starts_at')}
              />
              <Field
                label={t('endsAt')}
                name="ends_at"
                type="datetime-local"
                optional
                error={fieldError(create.error, 'ends_at')}
              />
            </div>
            <div class="pair">
              <Field
                label={t('location')}
                name="location"
                optional
                error={fieldError(create.error, 'location')}
              />
              <Field
                label={t('maxParticipants')}
                name="max_participants"
                type="number"
                min="1"
                step="1"
                optional
                error={fieldError(create.error, 'max_participants')}
              />
            </div>
            <button type="submit" disabled={create.isPending}>
              {t('create')}
            </button>
          </form>
        </details>
      ) : null}
    </section>
  );
}

export function EditionScreen() {
  const { t } = useI18n();
  const { eventId, editionId, event, role, edition } = useEditionRoute();
  const editable = canAdmin(role);
  return (
    <>
      <nav aria-label="breadcrumb" class="crumbs">
        <a href="/console">{t('allEvents')}</a> <span aria-hidden="true">›</span>{' '}
        <a href={`/console/events/${eventId}`}>{event.data?.name ?? t('backToEvent')}</a>
      </nav>
      {edition.data === undefined ? (
        <>
          <h1 tabIndex={-1}>{t('editionDetails')}</h1>
          <Pending query={edition} />
        </>
      ) : (
        <>
          <h1 tabIndex={-1}>
            {edition.data.name}{' '}
            <span class={`tag tag-${edition.data.is_draft ? 'draft' : 'active'}`}>
              {t(edition.data.is_draft ? 'status_draft' : 'status_published')}
            </span>
          </h1>
          {role === 'staff' ? <p class="hint">{t('readOnly')}</p> : null}
          <EditionSellNav eventId={eventId} editionId={editionId} role={role} />
          <div class="grid">
            <EditionDetails key={edition.data.id} edition={edition.data} editable={editable} />
            <TicketTypes editionId={editionId} editable={editable} />
            <Programs edition={edition.data} editable={editable} />
          </div>
        </>
      )}
    </>
  );
}
