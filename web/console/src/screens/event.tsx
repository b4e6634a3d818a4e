/**
 * `/console/events/{event_id}`: one event. Its details (`PATCH /events/{event_id}`) and publishing
 * (`POST …/publish`), its editions, published and drafts, with the form that adds one, and its
 * team: members (`GET`/`POST /events/{event_id}/members`) and invitations by e-mail
 * (`/events/{event_id}/invitations`). What the person's role does not allow is not offered: staff
 * see the event and its team read-only, and no invitations (an admin's business).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useRoute } from 'preact-iso';
import { api, type Edition, type Event, toInstant, unwrap } from '../api.ts';
import { useI18n } from '../i18n.tsx';
import { ErrorNotice, Field, fieldError, formValues, Notice, orNull, Pending, withoutEmpty } from '../ui.tsx';
import { useMyEvents } from './events.tsx';
import { EventTalkNav } from './nav.tsx';

export type Role = 'owner' | 'admin' | 'staff';

/** The person's role on `eventId`, from their events list (undefined while it loads). */
export function useRole(eventId: string): Role | undefined {
  return useMyEvents().data?.find((event) => event.id === eventId)?.role;
}

export const canAdmin = (role: Role | undefined) => role === 'owner' || role === 'admin';

export function useEvent(eventId: string) {
  return useQuery({
    queryKey: ['event', eventId],
    queryFn: () => unwrap(api.GET('/events/{event_id}', { params: { path: { event_id: eventId } } })),
    // The door knows its event only once its edition is read.
    enabled: eventId !== '',
  });
}

function EventDetails({ event, editable }: { event: Event; editable: boolean }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const save = useMutation({
    mutationFn: (body: { name: string; description: string | null; contact_email: string | null }) =>
      unwrap(api.PATCH('/events/{event_id}', { params: { path: { event_id: event.id } }, body })),
    onSuccess: (saved) => {
      queries.setQueryData(['event', event.id], saved);
      return queries.invalidateQueries({ queryKey: ['events'] });
    },
  });
  const publish = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/events/{event_id}/publish', { params: { path: { event_id: event.id } } })),
    onSuccess: (saved) => {
      queries.setQueryData(['event', event.id], saved);
      return queries.invalidateQueries({ queryKey: ['events'] });
    },
  });
  return (
    <section class="card" aria-labelledby="event-details">
      <h2 id="event-details">{t('eventDetails')}</h2>
      <form
        onSubmit={(submitted) => {
          submitted.preventDefault();
          const values = formValues(submitted);
          save.mutate({
            name: values.name ?? '',
            description: orNull(values.description),
            contact_email: orNull(values.contact_email),
          });
        }}
      >
        <fieldset disabled={!editable}>
          {save.isError ? <ErrorNotice error={save.error} /> : null}
          {save.isSuccess ? <Notice kind="ok">{t('saved')}</Notice> : null}
          <Field
            label={t('name')}
            name="name"
            defaultValue={event.name}
            minLength={2}
            maxLength={200}
            error={fieldError(save.error, 'name')}
          />
          <div class="field">
            <label for="event-description">
              {t('description')} <span class="muted">{t('optional')}</span>
            </label>
            <textarea
              id="event-description"
              name="description"
              rows={3}
              defaultValue={event.description ?? ''}
            />
          </div>
          <Field
            label={t('contactEmail')}
            name="contact_email"
            type="email"
            optional
            defaultValue={event.contact_email ?? ''}
            error={fieldError(save.error, 'contact_email')}
          />
          {editable ? (
            <button type="submit" disabled={save.isPending}>
              {t('save')}
            </button>
          ) : null}
        </fieldset>
      </form>
      {editable && event.status === 'draft' ? (
        <div class="publish">
          <p class="hint">{t('publishEventHint')}</p>
          {publish.isError ? <ErrorNotice error={publish.error} /> : null}
          <button type="button" onClick={() => publish.mutate()} disabled={publish.isPending}>
            {t('publishEvent')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function Editions({ eventId, editable }: { eventId: string; editable: boolean }) {
  const { t, when } = useI18n();
  const queries = useQueryClient();
  const path = { event_id: eventId };
  const published = useQuery({
    queryKey: ['editions', eventId, 'published'],
    queryFn: () =>
      unwrap(api.GET('/events/{event_id}/editions', { params: { path, query: { limit: 100 } } })),
  });
  const drafts = useQuery({
    queryKey: ['editions', eventId, 'drafts'],
    queryFn: () =>
      unwrap(api.GET('/events/{event_id}/editions/drafts', { params: { path, query: { limit: 100 } } })),
  });
  const create = useMutation({
    mutationFn: (body: {
      name: string;
      slug: string;
      starts_at: string;
      ends_at: string;
      location_name?: string;
    }) => unwrap(api.POST('/events/{event_id}/editions', { params: { path }, body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['editions', eventId] }),
  });
  const all: Edition[] = [...(drafts.data ?? []), ...(published.data ?? [])].sort((a, b) =>
    a.starts_at.localeCompare(b.starts_at),
  );
  return (
    <section class="card" aria-labelledby="editions">
      <h2 id="editions">{t('editions')}</h2>
      {published.data === undefined || drafts.data === undefined ? (
        <Pending query={published.data === undefined ? published : drafts} />
      ) : all.length === 0 ? (
        <p>{t('noEditions')}</p>
      ) : (
        <ul class="rows">
          {all.map((edition) => (
            <li key={edition.id}>
              <a href={`/console/events/${eventId}/editions/${edition.id}`}>{edition.name}</a>
              <span class="muted"> · {when(edition.starts_at)}</span>{' '}
              <span class={`tag tag-${edition.is_draft ? 'draft' : 'active'}`}>
                {t(edition.is_draft ? 'status_draft' : 'status_published')}
              </span>
            </li>
          ))}
        </ul>
      )}
      {editable ? (
        <details class="create">
          <summary>{t('newEdition')}</summary>
          <form
            onSubmit={(submitted) => {
              submitted.preventDefault();
              const form = submitted.currentTarget;
              const values = formValues(submitted);
              create.mutate(
                {
                  name: values.name ?? '',
                  slug: values.slug ?? '',
                  starts_at: toInstant(values.starts_at ?? '') ?? '',
                  ends_at: toInstant(values.ends_at ?? '') ?? '',
                  ...withoutEmpty({ location_name: values.location_name }),
                },
                { onSuccess: () => form.reset() },
              );
            }}
          >
            {create.isError ? <ErrorNotice error={create.error} /> : null}
            {create.isSuccess ? <Notice kind="ok">{t('created')}</Notice> : null}
            <Field label={t('name')} name="name" maxLength={200} error={fieldError(create.error, 'name')} />
            <Field
              label={t('slug')}
              name="slug"
              hint={t('slugHint')}
              pattern="[a-z0-9][a-z0-9\-]*"
              autoCapitalize="off"
              error={fieldError(create.error, 'slug')}
            />
            <div class="pair">
              <Field
                label={t('startsAt')}
                name="starts_at"
                type="datetime-local"
                error={fieldError(create.error, 'starts_at')}
              />
              <Field
                label={t('endsAt')}
                name="ends_at"
                type="datetime-local"
                error={fieldError(create.error, 'ends_at')}
              />
            </div>
            <Field
              label={t('venue')}
              name="location_name"
              optional
              error={fieldError(create.error, 'location_name')}
            />
            <button type="submit" disabled={create.isPending}>
              {t('create')}
            </button>
          </form>
        </details>
      ) : null}
    </section>
  );
}

function Members({ eventId, role }: { eventId: string; role: Role | undefined }) {
  const { t } = useI18n();
  const queries = useQueryClient();
  const path = { event_id: eventId };
  const members = useQuery({
    queryKey: ['members', eventId],
    queryFn: () => unwrap(api.GET('/events/{event_id}/members', { params: { path, query: { limit: 100 } } })),
  });
  const add = useMutation({
    mutationFn: (body: { email: string; role: 'admin' | 'staff' }) =>
      unwrap(api.POST('/events/{event_id}/members', { params: { path }, body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['members', eventId] }),
  });
  return (
    <section class="card" aria-labelledby="members">
      <h2 id="members">{t('members')}</h2>
      {members.data === undefined ? (
        <Pending query={members} />
      ) : (
        <ul class="rows">
          {members.data.map((member) => (
            <li key={member.user_id}>
              {member.email} <span class="tag">{t(`role_${member.role}`)}</span>
            </li>
          ))}
        </ul>
      )}
      {canAdmin(role) ? (
        <details class="create">
          <summary>{t('addMember')}</summary>
          <form
            onSubmit={(submitted) => {
              submitted.preventDefault();
              const values = formValues(submitted);
              add.mutate({ email: values.email ?? '', role: values.role === 'admin' ? 'admin' : 'staff' });
            }}
          >
            <p class="hint">{t('addMemberHint')}</p>
            {add.isError ? <ErrorNotice error={add.error} notFound="memberUnknown" /> : null}
            <Field
              label={t('email')}
              name="email"
              type="email"
              autoComplete="off"
              error={fieldError(add.error, 'email')}
            />
            <RoleSelect id="member-role" ownerIs={role} />
            <button type="submit" disabled={add.isPending}>
              {t('add')}
            </button>
          </form>
        </details>
      ) : null}
    </section>
  );
}

/** Staff or admin; only the owner may make an admin, so an admin is offered staff only. */
function RoleSelect({ id, ownerIs }: { id: string; ownerIs: Role | undefined }) {
  const { t } = useI18n();
  return (
    <div class="field">
      <label for={id}>{t('role')}</label>
      <select id={id} name="role">
        <option value="staff">{t('role_staff')}</option>
        {ownerIs === 'owner' ? <option value="admin">{t('role_admin')}</option> : null}
      </select>
    </div>
  );
}

function Invitations({ eventId, role }: { eventId: string; role: Role | undefined }) {
  const { t, when } = useI18n();
  const queries = useQueryClient();
  const path = { event_id: eventId };
  const invitations = useQuery({
    queryKey: ['invitations', eventId],
    queryFn: () =>
      unwrap(api.GET('/events/{event_id}/invitations', { params: { path, query: { limit: 100 } } })),
  });
  const invite = useMutation({
    mutationFn: (body: { email: string; role: 'admin' | 'staff' }) =>
      unwrap(api.POST('/events/{event_id}/invitations', { params: { path }, body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['invitations', eventId] }),
  });
  const withdraw = useMutation({
    mutationFn: (invitationId: string) =>
      unwrap(
        api.DELETE('/events/{event_id}/invitations/{invitation_id}', {
          params: { path: { event_id: eventId, invitation_id: invitationId } },
        }),
      ),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['invitations', eventId] }),
  });
  return (
    <section class="card" aria-labelledby="invitations">
      <h2 id="invitations">{t('invitations')}</h2>
      {withdraw.isError ? <ErrorNotice error={withdraw.error} /> : null}
      {invitations.data === undefined ? (
        <Pending query={invitations} />
      ) : invitations.data.length === 0 ? (
        <p>{t('noInvitations')}</p>
      ) : (
        <ul class="rows">
          {invitations.data.map((invitation) => (
            <li key={invitation.id}>
              {invitation.email} <span class="tag">{t(`role_${invitation.role}`)}</span>{' '}
              <span class={`tag tag-${invitation.status}`}>{t(`invitation_${invitation.status}`)}</span>
              {invitation.status === 'pending' ? (
                <>
                  <span class="muted"> · {t('expires', { when: when(invitation.expires_at) })} </span>
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={t('withdrawInvitation', { email: invitation.email })}
                    onClick={() => withdraw.mutate(invitation.id)}
                  >
                    {t('withdraw')}
                  </button>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <details class="create">
        <summary>{t('invite')}</summary>
        <form
          onSubmit={(submitted) => {
            submitted.preventDefault();
            const form = submitted.currentTarget;
            const values = formValues(submitted);
            invite.mutate(
              { email: values.email ?? '', role: values.role === 'admin' ? 'admin' : 'staff' },
              { onSuccess: () => form.reset() },
            );
          }}
        >
          {invite.isError ? <ErrorNotice error={invite.error} /> : null}
          <Field
            label={t('email')}
            name="email"
            type="email"
            autoComplete="off"
            error={fieldError(invite.error, 'email')}
          />
          <RoleSelect id="invitation-role" ownerIs={role} />
          <button type="submit" disabled={invite.isPending}>
            {t('sendInvitation')}
          </button>
        </form>
      </details>
    </section>
  );
}

export function EventScreen() {
  const { t } = useI18n();
  const { params } = useRoute();
  const eventId = params.eventId ?? '';
  const event = useEvent(eventId);
  const role = useRole(eventId);
  const editable = canAdmin(role);
  return (
    <>
      <nav aria-label="breadcrumb" class="crumbs">
        <a href="/console">{t('allEvents')}</a>
      </nav>
      {event.data === undefined ? (
        <>
          <h1 tabIndex={-1}>{t('eventDetails')}</h1>
          <Pending query={event} />
        </>
      ) : (
        <>
          <h1 tabIndex={-1}>
            {event.data.name}{' '}
            <span class={`tag tag-${event.data.status}`}>{t(`status_${event.data.status}`)}</span>
          </h1>
          {role === 'staff' ? <p class="hint">{t('readOnly')}</p> : null}
          <EventTalkNav eventId={eventId} role={role} />
          <div class="grid">
            <EventDetails key={event.data.id} event={event.data} editable={editable} />
            <Editions eventId={eventId} editable={editable} />
            <Members eventId={eventId} role={role} />
            {editable ? <Invitations eventId={eventId} role={role} /> : null}
          </div>
        </>
      )}
    </>
  );
}
