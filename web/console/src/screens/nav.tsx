/**
 * The ways to the Talk and Sell screens: the links an event's and an edition's screens offer (only
 * those the person's role opens: the mail is admin+, the sales owner and admin only, so staff are
 * not even shown the entry), and the breadcrumbs back from them.
 */
import { useI18n } from '../i18n.tsx';

// Not imported from event.tsx, which imports this file.
type Role = 'owner' | 'admin' | 'staff';
const canAdmin = (role: Role | undefined) => role === 'owner' || role === 'admin';

export function EventCrumbs({ eventId, eventName }: { eventId: string; eventName: string | undefined }) {
  const { t } = useI18n();
  return (
    <nav aria-label="breadcrumb" class="crumbs">
      <a href="/console">{t('allEvents')}</a> <span aria-hidden="true">›</span>{' '}
      <a href={`/console/events/${eventId}`}>{eventName ?? t('backToEvent')}</a>
    </nav>
  );
}

export function EditionCrumbs({
  eventId,
  eventName,
  editionId,
  editionName,
}: {
  eventId: string;
  eventName: string | undefined;
  editionId: string;
  editionName: string | undefined;
}) {
  const { t } = useI18n();
  return (
    <nav aria-label="breadcrumb" class="crumbs">
      <a href="/console">{t('allEvents')}</a> <span aria-hidden="true">›</span>{' '}
      <a href={`/console/events/${eventId}`}>{eventName ?? t('backToEvent')}</a>{' '}
      <span aria-hidden="true">›</span>{' '}
      <a href={`/console/events/${eventId}/editions/${editionId}`}>{editionName ?? t('editionDetails')}</a>
    </nav>
  );
}

/**
 * The head of an edition's screen: the crumbs, the screen's title (which takes the focus when the
 * screen opens), and the links to the edition's other screens.
 */
export function EditionScreenHead({
  route,
  title,
}: {
  /** What `useEditionRoute` (edition.tsx) answers. */
  route: {
    eventId: string;
    editionId: string;
    role: Role | undefined;
    event: { data?: { name: string } | undefined };
    edition: { data?: { name: string } | undefined };
  };
  title: string;
}) {
  const { eventId, editionId, role } = route;
  return (
    <>
      <EditionCrumbs
        eventId={eventId}
        eventName={route.event.data?.name}
        editionId={editionId}
        editionName={route.edition.data?.name}
      />
      <h1 tabIndex={-1}>{title}</h1>
      <EditionSellNav eventId={eventId} editionId={editionId} role={role} />
    </>
  );
}

/** An event's screens for its owners and admins: getting paid and its mail. */
export function EventTalkNav({ eventId, role }: { eventId: string; role: Role | undefined }) {
  const { t } = useI18n();
  if (!canAdmin(role)) return null;
  return (
    <nav class="screen-links" aria-label={t('talkSell')}>
      <a href={`/console/events/${eventId}/payments`}>{t('getPaid')}</a>
      <a href={`/console/events/${eventId}/email-templates`}>{t('emailTemplates')}</a>
      <a href={`/console/events/${eventId}/emails`}>{t('mailLog')}</a>
    </nav>
  );
}

/** An edition's registrations and its door (staff and up), and its sales (owners and admins only). */
export function EditionSellNav({
  eventId,
  editionId,
  role,
}: {
  eventId: string;
  editionId: string;
  role: Role | undefined;
}) {
  const { t } = useI18n();
  if (role === undefined) return null;
  const base = `/console/events/${eventId}/editions/${editionId}`;
  return (
    <nav class="screen-links" aria-label={t('talkSell')}>
      <a href={`${base}/registrations`}>{t('registrations')}</a>
      {canAdmin(role) ? <a href={`${base}/sales`}>{t('sales')}</a> : null}
      <a href={`/console/editions/${editionId}/scan`}>{t('scanBadges')}</a>
      <a href={`${base}/attendance`}>{t('attendance')}</a>
      {canAdmin(role) ? <a href={`${base}/certificates`}>{t('certificates')}</a> : null}
    </nav>
  );
}
