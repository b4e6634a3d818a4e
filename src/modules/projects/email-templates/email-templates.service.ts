/**
 * E-mail templates of a project (docs/reference/projects.md): the account mails' family of templates, with
 * the overrides a project's admins and owner write (kernel/mail-templates/overrides.service.ts does the
 * work; this file says what the family is). The defaults are in English only.
 */
import type { Executor } from '../../../kernel/db/client.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { checkVariables, type RenderedEmail, type Variables } from '../../../kernel/mail-templates/liquid.ts';
import { TemplateOverrides } from '../../../kernel/mail-templates/overrides.service.ts';
import { findProjectName, requireProjectRole } from '../projects/index.ts';
import { DEFAULT_TEMPLATES } from './email-templates.defaults.ts';
import { overrideStore } from './email-templates.repository.ts';
import { EMAIL_TEMPLATE_KINDS, type EmailTemplateKind } from './email-templates.table.ts';

export const projectTemplates = new TemplateOverrides<EmailTemplateKind>({
  kinds: EMAIL_TEMPLATE_KINDS,
  defaultOf: (kind) => DEFAULT_TEMPLATES[kind],
  store: overrideStore,
  requireManager: async (db, projectId, actor) => {
    await requireProjectRole(db, projectId, actor, 'admin');
  },
});

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
  checkVariables(DEFAULT_TEMPLATES[kind], variables);
  if (variables.action_url === undefined || variables.action_url === '') {
    throw new TypeError('renderEmail: action_url is required');
  }
  return projectTemplates.render(db, projectId, kind, 'en', { project_name: projectName, ...variables });
}
