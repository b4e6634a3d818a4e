/**
 * The templates of the mails an event sends (docs/mail.md): the five kinds with their defaults in the
 * reader's language, overrides validated by the kind's variables, preview, restore, and the roles.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { EVENT_MAIL_KINDS } from '../../mail/index.ts';
import { eventFixtures, useTeam } from '../events.fixtures.ts';

interface Template {
  kind: string;
  subject: string;
  body: string;
  source: 'default' | 'override';
  variables: Array<{ name: string; required: boolean }>;
}

describe('event e-mail templates', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  const events = eventFixtures(() => team);
  const url = (eventId: string, kind = '') =>
    `/events/${eventId}/email-templates${kind === '' ? '' : `/${kind}`}`;

  it('lists the five kinds as defaults, each requiring its link, in the language asked for', async () => {
    const event = await events.createTeamEvent();
    const listed = expectOk(await t.get<Template[]>(url(event.id), { token: admin.token }), 200, 'events');
    assert.deepEqual(
      listed.map((item) => [item.kind, item.source]),
      EVENT_MAIL_KINDS.map((kind) => [kind, 'default']),
    );
    const required = Object.fromEntries(
      listed.map((item) => [item.kind, item.variables.filter((v) => v.required).map((v) => v.name)]),
    );
    assert.deepEqual(required, {
      signature_request: ['sign_url'],
      registration_confirmed: ['badge_url'],
      refund_issued: ['amount'],
      certificate_issued: ['verify_url'],
      event_invitation: ['sign_in_url'],
    });
    const pt = expectOk(
      await t.get<Template>(url(event.id, 'registration_confirmed'), {
        token: owner.token,
        headers: { 'accept-language': 'pt-BR,pt;q=0.9' },
      }),
    );
    assert.match(pt.subject, /Inscrição confirmada/);
    assert.match(pt.body, /<html lang="pt-BR"/);
    assert.match(pt.body, /cid:badge-qr/);
  });

  it('stores a valid override for every language, previews and restores it', async () => {
    const event = await events.createTeamEvent();
    const override = {
      subject: 'See you at {{ edition_name }}',
      body: '<p>{% if language == "es" %}Hola{% else %}Hi{% endif %} {{ recipient_name }}: <a href="{{ badge_url }}">badge</a></p>',
    };
    const stored = expectOk(
      await t.put<Template>(url(event.id, 'registration_confirmed'), { token: owner.token, body: override }),
    );
    assert.equal(stored.source, 'override');
    const preview = expectOk(
      await t.post<{ subject: string; html: string; text: string }>(
        `${url(event.id, 'registration_confirmed')}/preview`,
        {
          token: admin.token,
          body: { variables: { recipient_name: '<Lea>' } },
          headers: { 'accept-language': 'es' },
        },
      ),
    );
    assert.equal(preview.subject, 'See you at Rust Conf 2027');
    assert.match(preview.html, /Hola &lt;Lea&gt;/);
    assert.match(preview.text, /badge/);
    const restored = expectOk(
      await t.delete<Template>(url(event.id, 'registration_confirmed'), { token: owner.token }),
    );
    assert.equal(restored.source, 'default');
  });

  it('refuses an override without the kind link, with an unknown variable, or that does not parse', async () => {
    const event = await events.createTeamEvent();
    const noLink = expectError(
      await t.put(url(event.id, 'certificate_issued'), {
        token: owner.token,
        body: { subject: 'Certificate', body: '<p>{{ certificate_name }}</p>' },
      }),
      400,
      'VALIDATION_ERROR',
    );
    assert.match(noLink.fields?.[0]?.message ?? '', /verify_url/);
    const unknown = expectError(
      await t.put(url(event.id, 'refund_issued'), {
        token: owner.token,
        body: { subject: '{{ nope }}', body: '<p>{{ amount }}</p>' },
      }),
      400,
      'VALIDATION_ERROR',
    );
    assert.equal(unknown.fields?.[0]?.field, 'subject');
    expectError(
      await t.put(url(event.id, 'refund_issued'), {
        token: owner.token,
        body: { subject: 'x', body: '{% if amount %}' },
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('owner and admin only: staff 403, outsiders 404 on a draft; an unknown kind is 404', async () => {
    const draft = await events.createTeamEvent({ isDraft: true });
    expectError(await t.get(url(draft.id), { token: staff.token }), 403, 'FORBIDDEN');
    expectError(await t.get(url(draft.id), { token: outsider.token }), 404, 'NOT_FOUND');
    expectError(await t.get(url(draft.id, 'verify'), { token: owner.token }), 404, 'NOT_FOUND');
    expectError(await t.get(url(draft.id)), 401, 'UNAUTHORIZED');
  });
});
