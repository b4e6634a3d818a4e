/**
 * Badge templates (docs/reference/tickets.md): one live template per scope of an edition — the edition
 * default, one per ticket type, and one for staff. Emissions, print data and a user's badges are in
 * badge-emissions.service.ts; the emission rules in badges.emission.ts.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { describeConstraint } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { AppError, conflict, notFound, validationError } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { requireEditionRole } from '../editions/index.ts';
import type { EventRole } from '../events/index.ts';
import { findTicketType } from '../tickets/index.ts';
import * as repo from './badges.repository.ts';
import {
  type CreateBadgeTemplateBody,
  DESIGN_DATA_MAX_BYTES,
  type UpdateBadgeTemplateBody,
} from './badges.schemas.ts';
import type { BadgeTemplateRow } from './badges.table.ts';

describeConstraint('badge_templates_scope_unique', {
  reason: 'template_scope_taken',
  message: 'this edition already has a badge template for that scope',
});

/** The JSON size limit of `design_data`, which a schema cannot express. */
function checkDesignSize(designData: Record<string, unknown> | undefined): void {
  if (designData === undefined) return;
  const bytes = Buffer.byteLength(JSON.stringify(designData), 'utf8');
  if (bytes > DESIGN_DATA_MAX_BYTES) {
    throw validationError([
      { field: 'design_data', message: `must be at most ${DESIGN_DATA_MAX_BYTES} bytes as JSON (${bytes})` },
    ]);
  }
}

/** `default`, `staff` or `ticket:<id>`: what the partial unique index keeps to one live template. */
export function templateScope(origin: 'staff' | null | undefined, ticketTypeId: string | null | undefined) {
  if (origin === 'staff') return 'staff';
  if (ticketTypeId !== null && ticketTypeId !== undefined) return `ticket:${ticketTypeId}`;
  return 'default';
}

export async function createTemplate(
  db: Database,
  editionId: string,
  actor: Identity,
  body: CreateBadgeTemplateBody,
) {
  await requireEditionRole(db, editionId, actor, 'admin');
  if (body.origin !== undefined && body.ticket_type_id !== undefined) {
    throw validationError([
      { field: 'ticket_type_id', message: 'must not be given together with origin' },
      { field: 'origin', message: 'must not be given together with ticket_type_id' },
    ]);
  }
  checkDesignSize(body.design_data);
  if (body.ticket_type_id !== undefined) {
    const ticketType = await findTicketType(db, body.ticket_type_id);
    if (ticketType === undefined || ticketType.edition_id !== editionId) throw notFound('Ticket type');
  }
  const scope = templateScope(body.origin, body.ticket_type_id);
  const existing = await repo.findTemplateByScope(db, editionId, scope);
  if (existing !== undefined) {
    throw conflict('template_scope_taken', 'This edition already has a badge template for that scope', {
      scope,
      template_id: existing.id,
    });
  }
  // The partial unique index still decides between two concurrent creations (mapped to 409).
  const row = await repo.insertTemplate(db, {
    id: uuidv7(),
    edition_id: editionId,
    name: body.name,
    design_data: body.design_data,
    origin: body.origin ?? null,
    ticket_type_id: body.ticket_type_id ?? null,
    scope,
  });
  return serialize(row);
}

export async function listTemplates(db: Database, editionId: string, actor: Identity, window: Window) {
  await requireEditionRole(db, editionId, actor, 'staff');
  const page = await repo.listTemplates(db, editionId, window);
  return { ...page, items: page.items.map(serialize) };
}

/**
 * The live template, for a caller holding `minimum` in its event. An unknown template and one the
 * caller may not know of (its edition deleted, or its event a draft they are not a member of) give
 * the same 404.
 */
async function requireTemplate(
  db: Database,
  templateId: string,
  actor: Identity,
  minimum: EventRole,
): Promise<BadgeTemplateRow> {
  const template = await repo.findTemplate(db, templateId);
  if (template === undefined) throw notFound('Badge template');
  try {
    await requireEditionRole(db, template.edition_id, actor, minimum);
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw notFound('Badge template');
    throw error;
  }
  return template;
}

export async function getTemplate(db: Database, templateId: string, actor: Identity) {
  return serialize(await requireTemplate(db, templateId, actor, 'staff'));
}

export async function updateTemplate(
  db: Database,
  templateId: string,
  actor: Identity,
  body: UpdateBadgeTemplateBody,
) {
  await requireTemplate(db, templateId, actor, 'admin');
  checkDesignSize(body.design_data);
  const row = await repo.updateTemplate(db, templateId, body);
  // Deleted between the guard and the update.
  if (row === undefined) throw notFound('Badge template');
  return serialize(row);
}

/** Soft delete: the template disappears from every read and frees its scope. */
export async function deleteTemplate(db: Database, templateId: string, actor: Identity) {
  await requireTemplate(db, templateId, actor, 'admin');
  const row = await repo.updateTemplate(db, templateId, { deleted_at: new Date() });
  if (row === undefined) throw notFound('Badge template');
  return serialize(row);
}
