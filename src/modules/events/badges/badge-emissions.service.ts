/**
 * Reading badge emissions (docs/reference/tickets.md): the organizers' list, the print data and a
 * user's public badges. The template of a badge is resolved when read, so a template created or
 * deleted after the emission applies at once: a participant badge takes its ticket type's template,
 * a staff badge the staff template, and either falls back to the edition default (else none).
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { UUID_PATTERN } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { AppError, notFound, validationError } from '../../../kernel/http/errors.ts';
import { requireEditionRole } from '../editions/index.ts';
import type { BadgeCodes } from './badge-codes.ts';
import * as repo from './badge-emissions.repository.ts';
import { listLiveTemplatesOf } from './badges.repository.ts';
import type { BadgePrintItemData } from './badges.schemas.ts';
import { templateScope } from './badges.service.ts';
import type { BadgeTemplateRow } from './badges.table.ts';

/** At most this many ids in one print selection. */
export const MAX_PRINT_SELECTION = 1000;

export function resolveTemplate(
  templates: BadgeTemplateRow[],
  emission: { edition_id: string; origin: 'participant' | 'staff'; ticket_type_id: string | null },
): BadgeTemplateRow | undefined {
  const ofEdition = templates.filter((template) => template.edition_id === emission.edition_id);
  const scope =
    emission.origin === 'staff' ? templateScope('staff', null) : templateScope(null, emission.ticket_type_id);
  return (
    ofEdition.find((template) => template.scope === scope) ??
    ofEdition.find((template) => template.scope === 'default')
  );
}

/** The interface's Badge emission fields (without the holder's e-mail). */
function emissionFields(view: repo.EmissionView, templates: BadgeTemplateRow[]) {
  const template = resolveTemplate(templates, view);
  return {
    id: view.id,
    user_id: view.user_id,
    origin: view.origin,
    status: view.status,
    status_reason: view.status_reason,
    ticket_name: view.origin === 'participant' ? view.ticket_name : null,
    template_id: template?.id ?? null,
    template_name: template?.name ?? null,
    emitted_at: view.emitted_at.toISOString(),
    updated_at: view.updated_at.toISOString(),
  };
}

/** The list of badge emissions (docs/reference/tickets.md): every emission of the edition, active and revoked, newest first. */
export async function listEmissions(
  db: Database,
  editionId: string,
  actor: Identity,
  status: 'active' | 'revoked' | undefined,
  window: Window,
) {
  await requireEditionRole(db, editionId, actor, 'admin');
  const [page, templates] = await Promise.all([
    repo.listEmissions(db, editionId, status, window),
    listLiveTemplatesOf(db, [editionId]),
  ]);
  return {
    ...page,
    items: page.items.map((view) => ({
      ...emissionFields(view, templates),
      holder_email: view.holder_email,
    })),
  };
}

/**
 * `emission_ids` as given: repeated parameters and comma-separated lists, combined. Every entry must
 * be a UUID; duplicates are dropped, the first occurrence keeps its place.
 */
export function parseEmissionIds(raw: string | string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const entries = [raw]
    .flat()
    .flatMap((value) => value.split(','))
    .map((value) => value.trim().toLowerCase());
  const invalid = (message: string) => validationError([{ field: 'query.emission_ids', message }]);
  if (entries.length === 0 || entries.some((entry) => !UUID_PATTERN.test(entry))) {
    throw invalid('must be a comma-separated list of UUIDs');
  }
  const ids = [...new Set(entries)];
  if (ids.length > MAX_PRINT_SELECTION) throw invalid(`must name at most ${MAX_PRINT_SELECTION} emissions`);
  return ids;
}

/**
 * The print data of the edition's active emissions: all of them in emission order, or the selected
 * ones in the order given. A selected id that is not an emission of this edition is a 404 (listed
 * in `error.meta.emission_ids`); a selected emission that is revoked is left out, as
 * docs/reference/tickets.md prints active emissions only.
 */
export async function printData(
  db: Database,
  editionId: string,
  actor: Identity,
  rawIds: string | string[] | undefined,
  codes: BadgeCodes,
): Promise<BadgePrintItemData[]> {
  await requireEditionRole(db, editionId, actor, 'admin');
  const ids = parseEmissionIds(rawIds);
  const [names, found, templates] = await Promise.all([
    repo.findEditionNames(db, editionId),
    repo.findEmissionsOfEdition(db, editionId, ids),
    listLiveTemplatesOf(db, [editionId]),
  ]);
  if (names === undefined) throw notFound('Edition');
  let selected = found;
  if (ids !== undefined) {
    const byId = new Map(found.map((view) => [view.id, view]));
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length > 0) {
      throw new AppError('NOT_FOUND', 'Some selected badge emissions are not emissions of this edition', {
        meta: { emission_ids: unknown },
      });
    }
    selected = ids.map((id) => byId.get(id)!);
  }
  return selected
    .filter((view) => view.status === 'active')
    .map((view) => {
      const template = resolveTemplate(templates, view);
      const ticketName = view.origin === 'participant' ? view.ticket_name : null;
      return {
        emission_id: view.id,
        user_id: view.user_id,
        origin: view.origin,
        ticket_name: ticketName,
        template_id: template?.id ?? null,
        template_name: template?.name ?? null,
        design_data: template?.design_data ?? {},
        variables: {
          event_name: names.event_name,
          edition_name: names.edition_name,
          ticket_name: ticketName,
          holder_email: view.holder_email,
          holder_name: view.holder_name ?? view.holder_email,
          action_url: codes.urlOf(view.id),
        },
      };
    });
}

type UserBadgeItem = ReturnType<typeof emissionFields> & {
  edition: { id: string; name: string; slug: string; starts_at: string; ends_at: string };
  event: { id: string; name: string; slug: string };
};

/**
 * A person's active badges of published editions of published events, grouped by origin
 * (participant badges are the `attendant` group) and split at the edition's end: `current` until
 * `ends_at`, soonest start first; `past` after, most recently ended first. No e-mails: the route is
 * public. An unknown user id has no badges (200 with empty groups, so ids cannot be probed).
 */
export async function listUserBadges(db: Database, userId: string, now = new Date()) {
  const views = await repo.listActiveBadgesOfUser(db, userId);
  const templates = await listLiveTemplatesOf(db, [...new Set(views.map((view) => view.edition_id))]);
  const groups = {
    attendant: { current: [] as UserBadgeItem[], past: [] as UserBadgeItem[] },
    staff: { current: [] as UserBadgeItem[], past: [] as UserBadgeItem[] },
  };
  const sorted = [...views].sort(
    (a, b) => a.edition.starts_at.getTime() - b.edition.starts_at.getTime() || a.id.localeCompare(b.id),
  );
  for (const view of sorted) {
    const group = groups[view.origin === 'participant' ? 'attendant' : 'staff'];
    const isCurrent = view.edition.ends_at.getTime() > now.getTime();
    const item: UserBadgeItem = {
      ...emissionFields(view, templates),
      edition: {
        ...view.edition,
        starts_at: view.edition.starts_at.toISOString(),
        ends_at: view.edition.ends_at.toISOString(),
      },
      event: view.event,
    };
    (isCurrent ? group.current : group.past).push(item);
  }
  for (const group of [groups.attendant, groups.staff]) {
    group.past.sort((a, b) => b.edition.ends_at.localeCompare(a.edition.ends_at) || a.id.localeCompare(b.id));
  }
  return groups;
}
