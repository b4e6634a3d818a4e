/**
 * E-mail templates of a project (docs/reference/projects.md). The effective template of a kind is the
 * project's override when there is one, otherwise the built-in default, tagged with `source`. Every route is
 * for the project's admins and owner; an unknown kind is 404 (after the role check, so outsiders learn
 * nothing). Overrides are validated before they are stored (email-templates.render.ts).
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import type { Page } from '../../../kernel/http/respond.ts';
import { findProjectName, requireProjectRole } from '../projects/index.ts';
import { DEFAULT_TEMPLATES, sampleValues } from './email-templates.defaults.ts';
import {
  checkVariables,
  type RenderedEmail,
  renderTemplate,
  type Variables,
  validateTemplate,
} from './email-templates.render.ts';
import * as repo from './email-templates.repository.ts';
import type { EmailTemplate, PreviewBody, PutTemplateBody } from './email-templates.schemas.ts';
import { EMAIL_TEMPLATE_KINDS, type EmailTemplateKind } from './email-templates.table.ts';

export function isKind(kind: string): kind is EmailTemplateKind {
  return (EMAIL_TEMPLATE_KINDS as readonly string[]).includes(kind);
}

function requireKind(kind: string): EmailTemplateKind {
  if (!isKind(kind)) throw notFound('E-mail template kind');
  return kind;
}

function effective(
  kind: EmailTemplateKind,
  override: { subject: string; body: string } | undefined,
): EmailTemplate {
  const fallback = DEFAULT_TEMPLATES[kind];
  return {
    kind,
    subject: override?.subject ?? fallback.subject,
    body: override?.body ?? fallback.body,
    source: override === undefined ? 'default' : 'override',
    variables: fallback.variables,
  };
}

async function effectiveTemplate(db: Executor, projectId: string, kind: EmailTemplateKind) {
  return effective(kind, await repo.findOverride(db, projectId, kind));
}

export async function listTemplates(
  db: Database,
  projectId: string,
  actor: Identity,
  window: Window,
): Promise<Page<EmailTemplate>> {
  await requireProjectRole(db, projectId, actor, 'admin');
  const overrides = new Map((await repo.findOverrides(db, projectId)).map((row) => [row.kind, row]));
  const all = EMAIL_TEMPLATE_KINDS.map((kind) => effective(kind, overrides.get(kind)));
  return {
    items: all.slice(window.offset, window.offset + window.limit),
    total: all.length,
    page: window.page,
    limit: window.limit,
  };
}

export async function getTemplate(db: Database, projectId: string, kind: string, actor: Identity) {
  await requireProjectRole(db, projectId, actor, 'admin');
  return effectiveTemplate(db, projectId, requireKind(kind));
}

export async function putTemplate(
  db: Database,
  projectId: string,
  kind: string,
  actor: Identity,
  body: PutTemplateBody,
): Promise<EmailTemplate> {
  await requireProjectRole(db, projectId, actor, 'admin');
  const known = requireKind(kind);
  await validateTemplate(known, body);
  const row = await repo.upsertOverride(db, {
    project_id: projectId,
    kind: known,
    subject: body.subject,
    body: body.body,
    updated_by: actor.userId,
  });
  return effective(known, row);
}

/** Removes the override (a no-op without one) and answers the now-effective default. */
export async function deleteTemplate(db: Database, projectId: string, kind: string, actor: Identity) {
  await requireProjectRole(db, projectId, actor, 'admin');
  const known = requireKind(kind);
  await repo.deleteOverride(db, projectId, known);
  return effective(known, undefined);
}

export async function previewTemplate(
  db: Database,
  projectId: string,
  kind: string,
  actor: Identity,
  body: PreviewBody,
): Promise<RenderedEmail> {
  await requireProjectRole(db, projectId, actor, 'admin');
  const known = requireKind(kind);
  const variables = body.variables ?? {};
  checkVariables(known, variables);
  const current =
    body.subject === undefined || body.body === undefined
      ? await effectiveTemplate(db, projectId, known)
      : undefined;
  const source = { subject: body.subject ?? current?.subject ?? '', body: body.body ?? current?.body ?? '' };
  if (body.subject !== undefined || body.body !== undefined) await validateTemplate(known, source);
  return renderTemplate(known, source, { ...sampleValues(known), ...variables });
}

/**
 * Renders the effective template of `kind` for a project, for modules that send mail. `action_url`
 * is required; `project_name` defaults to the project's name; other declared variables not given
 * render empty. Throws NOT_FOUND for an unknown project, VALIDATION_ERROR for an undeclared
 * variable or a template that cannot render within the limits.
 */
export async function renderEmail(
  db: Executor,
  kind: EmailTemplateKind,
  projectId: string,
  variables: Variables,
): Promise<RenderedEmail> {
  const projectName = await findProjectName(db, projectId);
  if (projectName === undefined) throw notFound('Project');
  checkVariables(kind, variables);
  if (variables.action_url === undefined || variables.action_url === '') {
    throw new TypeError('renderEmail: action_url is required');
  }
  const template = await effectiveTemplate(db, projectId, kind);
  return renderTemplate(kind, template, { project_name: projectName, ...variables });
}
