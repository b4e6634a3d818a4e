/**
 * Shared setup of the certification tests (not a test file itself): templates of an edition, the
 * programs they link to, and the link routes. The helpers default to the edition and template the
 * test file keeps (`current`), read when they run, after its `before` hook.
 */
import { expectOk } from '../../../../test/assertions.ts';
import type { TestUser } from '../../../../test/harness.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { at, eventFixtures, type Team } from '../events.fixtures.ts';
import type { Program } from '../programs/programs.schemas.ts';
import type { CertificationTemplate, TemplateLink } from './certification-templates.schemas.ts';

export function certificationFixtures(
  getTeam: () => Team,
  current: () => { edition: Edition; template: CertificationTemplate },
) {
  const app = () => getTeam().t;
  const events = eventFixtures(getTeam);

  const templatesUrl = (editionId: string = current().edition.id) =>
    `/editions/${editionId}/certifications/templates`;
  const templateUrl = (id: string = current().template.id) => `/certifications/templates/${id}`;

  async function createTemplate(
    fields: Record<string, unknown> = {},
    editionId: string = current().edition.id,
    by: TestUser = getTeam().owner,
  ) {
    const response = await app().post<CertificationTemplate>(templatesUrl(editionId), {
      token: by.token,
      body: { kind: 'program_attendance', name: 'Attendance', ...fields },
    });
    return expectOk(response, 201, 'events');
  }
  async function createProgram(
    editionId: string = current().edition.id,
    fields: Record<string, unknown> = {},
  ) {
    const response = await app().post<Program>(`/editions/${editionId}/programs`, {
      token: getTeam().owner.token,
      body: { kind: 'activity', name: 'Workshop', starts_at: at(1), ...fields },
    });
    return expectOk(response, 201, 'events');
  }

  return {
    ...events,
    templatesUrl,
    templateUrl,
    createTemplate,
    createProgram,
    /**
     * The shared fixture: a published edition of a team event, a program_attendance template
     * named 'Fixture' and a program, both of that edition.
     */
    async setupCertification() {
      const edition = await events.freshEdition();
      const template = await createTemplate({ name: 'Fixture' }, edition.id);
      const program = await createProgram(edition.id);
      return { edition, template, program };
    },
    link: (templateId: string, programId: string, by: TestUser = getTeam().owner) =>
      app().post<TemplateLink>(`${templateUrl(templateId)}/link`, {
        token: by.token,
        body: { program_id: programId },
      }),
    unlink: (templateId: string, programId: string, by: TestUser = getTeam().owner) =>
      app().delete<TemplateLink>(`${templateUrl(templateId)}/link`, {
        token: by.token,
        body: { program_id: programId },
      }),
  };
}
