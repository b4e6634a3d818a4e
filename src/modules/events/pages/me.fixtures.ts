/**
 * What the tests of `/me` share: a person who is one user by token and by browser (the development
 * sign-in's id for their e-mail, docs/reference/sign-in.md) and their things: a confirmed free
 * registration with its badge and certificate, and a paid registration awaiting payment. A second
 * person with a registration and a certificate in the same edition, which must never show.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { expectOk } from '../../../../test/assertions.ts';
import { signToken, type TestApp, type TestUser } from '../../../../test/harness.ts';
import { userIdForEmail } from '../../../kernel/auth/user-ids.ts';
import type { certificateFixtures } from '../certificates/certificates.fixtures.ts';
import type { checkoutHelpers } from '../registrations/checkout.fixtures.ts';
import type { Registration } from '../registrations/registrations.schemas.ts';

/** A new person whose token and development sign-in act as one user; `name` in both. */
export async function browserPerson(t: TestApp, name: string): Promise<TestUser & { name: string }> {
  const email = `me-${randomBytes(3).toString('hex')}@example.com`;
  const id = userIdForEmail(email);
  const token = await signToken({ id, email }, { claims: { name } });
  expectOk(await t.get('/events/mine', { token }));
  return { id, email, token, name };
}

/** Signs `person` in by the development form; the `cookie` header of their session. */
export async function devSessionOf(t: TestApp, person: { email: string; name: string }): Promise<string> {
  const answer = await t.post('/auth/dev-sign-in', {
    body: { email: person.email, name: person.name },
    headers: { origin: new URL(t.baseUrl).origin },
  });
  assert.equal(answer.status, 303, answer.text);
  return String(answer.headers['set-cookie']).split(';')[0] ?? '';
}

/** The scene: `person`'s three kinds of things, and another person's in the same edition. */
export async function meScene(
  t: () => TestApp,
  f: ReturnType<typeof certificateFixtures>,
  h: ReturnType<typeof checkoutHelpers>,
  name = 'Ana Souza',
) {
  const person = await browserPerson(t(), name);
  const base = await f.setupAttendance();
  const free = expectOk(await f.register(person, base.edition.id, base.general.id), 201, 'events');
  const other = await f.attendee(base.edition.id, base.general.id, 'Bruno Lima');
  await f.createTemplate(base.edition.id, 'edition_attendance');
  await f.checkIn(base.edition.id, person);
  await f.checkIn(base.edition.id, other);
  await f.issueAndWait(base.edition.id);
  const certificates = await f.certificatesOf(base.edition.id);
  const certificate = certificates.find((item) => item.user_id === person.id);
  const othersCertificate = certificates.find((item) => item.user_id === other.id);
  assert.ok(certificate !== undefined && othersCertificate !== undefined, 'both hold a certificate');
  const paid = await h.paidEdition();
  const pending = expectOk(
    await t().post<Registration & { intent_id: string; checkout_url: string }>(
      `/editions/${paid.edition.id}/registrations`,
      { token: person.token, body: { ticket_type_id: paid.ticketType.id } },
    ),
    201,
    'events',
  );
  assert.equal(pending.status, 'pending_payment');
  const othersRegistration = (await f.registrations(base.edition.id)).find((row) => row.user_id === other.id);
  assert.ok(othersRegistration !== undefined);
  return {
    person,
    base,
    free,
    pending,
    paid,
    certificate,
    other,
    othersCertificate,
    othersRegistration,
  };
}
