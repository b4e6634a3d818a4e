/**
 * The targets of the read-route suite (bench/reads.ts): each public read route measured, and the
 * repository call its handler makes on a cache miss. Shared by the suite (which seeds, captures
 * and measures) and by the bare + pg server (bench/reads-bare-pg.ts, which runs each target's
 * statement behind a bare route), so that both capture the statement from the same call.
 */
import type { Database } from '../src/kernel/db/client.ts';
import { pageWindow } from '../src/kernel/http/respond.ts';
import { listTemplatesOfPublishedEdition } from '../src/modules/events/certification-templates/certification-templates.repository.ts';
import {
  findPublishedEditionBySlugs,
  listPublishedEditionsOfPublishedEvent,
} from '../src/modules/events/editions/editions.repository.ts';
import { listPublicProgramsOfPublishedEdition } from '../src/modules/events/programs/programs.repository.ts';

/** What the seed step created; targets build their paths (and later, headers) from it. */
export interface Seed {
  token: string;
  eventId: string;
  eventSlug: string;
  editions: Array<{ id: string; slug: string }>;
}

export interface Target {
  /** Short id: the bare routes are `/bare/<key>` and `/bare-pg/<key>`. */
  key: string;
  label: string;
  /** Path (and query) on the service. */
  path(seed: Seed): string;
  /** Send the seed token as a bearer token (for routes that need a caller). Default: anonymous. */
  isAuthenticated?: boolean;
  /**
   * The repository call the route's handler makes for that request, with the same arguments: its
   * SQL statement is captured and run behind the bare + pg route and straight through pg, the
   * uncached route's baselines.
   */
  query(db: Database, seed: Seed): Promise<unknown>;
}

/** Programs of the first edition (seeded by bench/reads.ts, read by `programs-list`). */
export const PROGRAM_COUNT = 50;

/** Adding a target is one entry here (plus, if it needs data, a few lines in `seed`). */
export const TARGETS: Target[] = [
  {
    key: 'edition-by-slugs',
    label: 'edition by slugs (op 3)',
    path: (s) => `/events/${s.eventSlug}:by-slug/editions/${s.editions[0]!.slug}:by-slug`,
    query: (db, s) => findPublishedEditionBySlugs(db, s.eventSlug, s.editions[0]!.slug),
  },
  {
    key: 'editions-list',
    label: 'public editions list',
    path: (s) => `/events/${s.eventId}/editions`,
    query: (db, s) => listPublishedEditionsOfPublishedEvent(db, s.eventId, pageWindow({})),
  },
  {
    key: 'programs-list',
    label: `programs, ${PROGRAM_COUNT} (op 9)`,
    path: (s) => `/editions/${s.editions[0]!.id}/programs?limit=${PROGRAM_COUNT}`,
    query: (db, s) =>
      listPublicProgramsOfPublishedEdition(
        db,
        s.editions[0]!.id,
        undefined,
        pageWindow({ limit: PROGRAM_COUNT }),
      ),
  },
  {
    key: 'certification-templates',
    label: 'certification templates (op 4)',
    path: (s) => `/editions/${s.editions[0]!.id}/certifications/templates`,
    query: (db, s) => listTemplatesOfPublishedEdition(db, s.editions[0]!.id, pageWindow({})),
  },
];

/** The targets of `keys`, in the table's order (all when undefined); an unknown key is refused. */
export function targetsOf(keys: string[] | undefined): Target[] {
  if (keys === undefined) return TARGETS;
  const unknown = keys.filter((key) => !TARGETS.some((target) => target.key === key));
  if (unknown.length > 0) {
    throw new Error(`unknown target ${unknown.join(', ')}; known: ${TARGETS.map((t) => t.key).join(', ')}`);
  }
  return TARGETS.filter((target) => keys.includes(target.key));
}

export function headersOf(target: Target, seed: Seed): Record<string, string> {
  return target.isAuthenticated ? { authorization: `Bearer ${seed.token}` } : {};
}
