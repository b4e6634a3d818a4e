/**
 * `/console`: the events where the signed-in person has a role (`GET /events/mine`), each with
 * their role and the event's status, and the form that creates one (`POST /events`; the creator is
 * its owner).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api.ts';
import { useI18n } from '../i18n.tsx';
import { ErrorNotice, Field, fieldError, formValues, Pending, withoutEmpty } from '../ui.tsx';

/** The person's events (first 100: the console is for people with a few events). */
export function useMyEvents() {
  return useQuery({
    queryKey: ['events', 'mine'],
    queryFn: () => unwrap(api.GET('/events/mine', { params: { query: { limit: 100 } } })),
  });
}

function NewEvent() {
  const { t } = useI18n();
  const queries = useQueryClient();
  const { route } = useLocation();
  const create = useMutation({
    mutationFn: (body: { name: string; slug: string; description?: string; contact_email?: string }) =>
      unwrap(api.POST('/events', { body })),
    onSuccess: async (event) => {
      await queries.invalidateQueries({ queryKey: ['events'] });
      route(`/console/events/${event.id}`);
    },
  });
  return (
    <section class="card" aria-labelledby="new-event">
      <h2 id="new-event">{t('newEvent')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const values = formValues(event);
          create.mutate({
            name: values.name ?? '',
            slug: values.slug ?? '',
            ...withoutEmpty({ description: values.description, contact_email: values.contact_email }),
          });
        }}
      >
        {create.isError ? <ErrorNotice error={create.error} /> : null}
        <Field
          label={t('name')}
          name="name"
          minLength={2}
          maxLength={200}
          error={fieldError(create.error, 'name')}
        />
        <Field
          label={t('slug')}
          name="slug"
          hint={t('slugHint')}
          pattern="[a-z0-9][a-z0-9\-]*"
          minLength={2}
          maxLength={64}
          autoCapitalize="off"
          spellcheck={false}
          error={fieldError(create.error, 'slug')}
        />
        <Field
          label={t('contactEmail')}
          name="contact_email"
          type="email"
          optional
          error={fieldError(create.error, 'contact_email')}
        />
        <button type="submit" disabled={create.isPending}>
          {t('create')}
        </button>
      </form>
    </section>
  );
}

export function EventsScreen() {
  const { t } = useI18n();
  const events = useMyEvents();
  return (
    <>
      <h1 tabIndex={-1}>{t('eventsTitle')}</h1>
      {events.data === undefined ? (
        <Pending query={events} />
      ) : events.data.length === 0 ? (
        <p>{t('noEvents')}</p>
      ) : (
        <ul class="cards" aria-label={t('eventsTitle')}>
          {events.data.map((event) => (
            <li key={event.id} class="card item">
              <a class="item-title" href={`/console/events/${event.id}`}>
                {event.name}
              </a>
              <span class="tags">
                <span class={`tag tag-${event.status}`}>{t(`status_${event.status}`)}</span>
                <span class="tag">{t(`role_${event.role}`)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <NewEvent />
    </>
  );
}
