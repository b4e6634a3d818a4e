/**
 * Certification templates of an edition and their links to programs. Rules: `design_data` is a
 * JSON object of at most 256 KiB; only `program_attendance` templates are linked, only to live
 * programs of the same edition, once each; a template cannot leave `program_attendance` while it
 * is linked (409). Reads follow the edition's visibility, and links to `staff_only` programs are
 * shown to members only, as the programs themselves are.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { asNotFound } from '../../../kernel/http/as-not-found.ts';
import { AppError, conflict, notFound, validationError } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { requireEditionRole, requireReadableEdition } from '../editions/index.ts';
import { isEventRole } from '../events/index.ts';
import { findProgramInAnyState } from '../programs/index.ts';
import * as repo from './certification-templates.repository.ts';
import {
  type CreateCertificationTemplateBody,
  MAX_DESIGN_BYTES,
  type UpdateCertificationTemplateBody,
} from './certification-templates.schemas.ts';
import type { CertificationTemplateRow } from './certification-templates.table.ts';

const TEMPLATE = 'Certification template';

/** The size rule a schema cannot state: the JSON text of `design_data`, in UTF-8 bytes. */
export function checkDesignSize(design: Record<string, unknown> | undefined): void {
  if (design === undefined) return;
  const bytes = Buffer.byteLength(JSON.stringify(design), 'utf8');
  if (bytes > MAX_DESIGN_BYTES) {
    throw validationError([
      { field: 'design_data', message: `must be at most ${MAX_DESIGN_BYTES} bytes as JSON (it is ${bytes})` },
    ]);
  }
}

/** A live template whose edition the caller may read, with the caller's role in the event. */
async function requireReadableTemplate(db: Database, templateId: string, actor: Identity | null) {
  const template = await repo.findTemplate(db, templateId);
  if (template === undefined) throw notFound(TEMPLATE);
  const { role } = await requireReadableEdition(db, template.edition_id, actor).catch(asNotFound(TEMPLATE));
  return { template, role };
}

/** A live template, for a caller who is owner or admin of the event. */
async function requireWritableTemplate(
  db: Database,
  templateId: string,
  actor: Identity,
): Promise<CertificationTemplateRow> {
  const template = await repo.findTemplate(db, templateId);
  if (template === undefined) throw notFound(TEMPLATE);
  await requireEditionRole(db, template.edition_id, actor, 'admin').catch(asNotFound(TEMPLATE));
  return template;
}

export async function createTemplate(
  db: Database,
  editionId: string,
  actor: Identity,
  body: CreateCertificationTemplateBody,
) {
  await requireEditionRole(db, editionId, actor, 'admin');
  checkDesignSize(body.design_data);
  const template = await repo.insertTemplate(db, {
    id: uuidv7(),
    edition_id: editionId,
    kind: body.kind,
    name: body.name,
    description: body.description ?? null,
    design_data: body.design_data ?? {},
  });
  return serialize(template);
}

/** Public when the edition is readable; oldest first. */
export async function listTemplates(db: Database, editionId: string, actor: Identity | null, window: Window) {
  // Hot path (docs/reference/events.md): a published edition's non-empty page is public, one round trip.
  const fast = await repo.listTemplatesOfPublishedEdition(db, editionId, window);
  if (fast !== undefined) return fast;
  await requireReadableEdition(db, editionId, actor);
  const page = await repo.listTemplates(db, editionId, window);
  return { ...page, items: page.items.map(serialize) };
}

export async function getTemplate(db: Database, templateId: string, actor: Identity | null) {
  const { template } = await requireReadableTemplate(db, templateId, actor);
  return serialize(template);
}

export async function updateTemplate(
  db: Database,
  templateId: string,
  actor: Identity,
  body: UpdateCertificationTemplateBody,
) {
  await requireWritableTemplate(db, templateId, actor);
  checkDesignSize(body.design_data);
  const updated = await db.transaction(async (tx) => {
    // Under the template's lock, so no link can be added between the check and the change.
    const current = await repo.lockTemplate(tx, templateId);
    if (current === undefined) throw notFound(TEMPLATE);
    if (body.kind === 'edition_attendance' && current.kind === 'program_attendance') {
      const linked = await repo.countLiveLinks(tx, templateId);
      if (linked > 0) {
        throw conflict(
          'template_linked',
          'The template is linked to programs: unlink them before changing its kind',
          {
            linked_programs: linked,
          },
        );
      }
    }
    return repo.updateTemplate(tx, templateId, body);
  });
  if (updated === undefined) throw notFound(TEMPLATE);
  return serialize(updated);
}

/** Soft delete: answers the deleted template, which then vanishes from every read. */
export async function deleteTemplate(db: Database, templateId: string, actor: Identity) {
  await requireWritableTemplate(db, templateId, actor);
  const deleted = await repo.updateTemplate(db, templateId, { deleted_at: new Date() });
  if (deleted === undefined) throw notFound(TEMPLATE);
  return serialize(deleted);
}

/**
 * Links a program. Order: the template (404) and the caller's role (403), the program (404 when
 * unknown), the rules (400: the template kind, a live program of the same edition), then the state
 * (409 when already linked).
 */
export async function linkProgram(db: Database, templateId: string, actor: Identity, programId: string) {
  await requireWritableTemplate(db, templateId, actor);
  const link = await db.transaction(async (tx) => {
    const template = await repo.lockTemplate(tx, templateId);
    if (template === undefined) throw notFound(TEMPLATE);
    const program = await findProgramInAnyState(tx, programId);
    if (program === undefined) throw notFound('Program');
    if (template.kind !== 'program_attendance') {
      throw new AppError('BAD_REQUEST', 'Only a program_attendance template can be linked to programs', {
        reason: 'not_program_attendance',
        meta: { kind: template.kind },
      });
    }
    if (program.deleted_at !== null || program.edition_id !== template.edition_id) {
      const message = 'must be a live program of the same edition as the template';
      throw new AppError('BAD_REQUEST', `The program ${message}`, {
        reason: 'program_not_linkable',
        fields: [{ field: 'program_id', message }],
      });
    }
    const inserted = await repo.insertLink(tx, templateId, programId);
    if (inserted === undefined) {
      throw conflict('already_linked', 'The program is already linked to this template', {
        program_id: programId,
      });
    }
    return inserted;
  });
  return serialize(link);
}

/** Removes a link; 404 when the program (live) is not linked to the template. */
export async function unlinkProgram(db: Database, templateId: string, actor: Identity, programId: string) {
  await requireWritableTemplate(db, templateId, actor);
  const removed = await repo.deleteLink(db, templateId, programId);
  if (removed === undefined) throw new AppError('NOT_FOUND', 'The program is not linked to this template');
  return serialize(removed);
}

/** Links to live programs, oldest first; `staff_only` programs are listed to members only. */
export async function listLinks(db: Database, templateId: string, actor: Identity | null, window: Window) {
  const { role } = await requireReadableTemplate(db, templateId, actor);
  const page = await repo.listLinks(db, templateId, isEventRole(role, 'staff'), window);
  return { ...page, items: page.items.map(serialize) };
}
