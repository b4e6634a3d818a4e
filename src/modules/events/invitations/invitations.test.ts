/**
 * Invitations (docs/mail.md): inviting writes the invitation and its mail, the roles and states that
 * refuse it, withdrawing, and acceptance: the invitee is a member from their first authenticated
 * request, with nothing for an expired or withdrawn invitation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { queryRows } from '../../../kernel/db/raw.ts';
import { eventFixtures, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';

interface Invitation {
  id: string;
  event_id: string;
  email: string;
  role: string;
  status: string;
  expires_at: string;
  ended_at: string | null;
}

describe('event invitations', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  const events = eventFixtures(() => team);

  const invite = (eventId: string, body: Record<string, unknown>, token = owner.token) =>
    t.post<Invitation>(`/events/${eventId}/invitations`, { token, body });

  it('invites an e-mail no one has used: 201 pending, with an event_invitation mail in the log', async () => {
    const event = await events.createTeamEvent();
    const email = `new-${Date.now()}@example.com`;
    const made = expectOk(await invite(event.id, { email, role: 'staff' }), 201, 'events');
    assert.equal(made.status, 'pending');
    assert.equal(made.email, email);
    assert.equal(made.role, 'staff');
    assert.ok(Date.parse(made.expires_at) - Date.now() > 6.9 * 86_400_000, 'seven days by default');
    const log = expectOk(
      await t.get<Array<{ kind: string; to: string }>>(`/events/${event.id}/emails?kind=event_invitation`, {
        token: owner.token,
      }),
    );
    assert.deepEqual(
      log.map((mail) => [mail.kind, mail.to]),
      [['event_invitation', email]],
    );
    const listed = expectOk(
      await t.get<Invitation[]>(`/events/${event.id}/invitations`, { token: admin.token }),
    );
    assert.deepEqual(
      listed.map((item) => item.id),
      [made.id],
    );
  });

  it('refuses by role first: staff 403, an outsider 404 on a draft; only the owner invites an admin', async () => {
    const draft = await events.createTeamEvent({ isDraft: true });
    expectError(
      await invite(draft.id, { email: 'x@example.com', role: 'staff' }, staff.token),
      403,
      'FORBIDDEN',
    );
    expectError(
      await invite(draft.id, { email: 'x@example.com', role: 'staff' }, outsider.token),
      404,
      'NOT_FOUND',
    );
    expectError(await invite(UNKNOWN_ID, { email: 'x@example.com', role: 'staff' }), 404, 'NOT_FOUND');
    expectError(
      await invite(draft.id, { email: 'x@example.com', role: 'admin' }, admin.token),
      403,
      'FORBIDDEN',
    );
    expectOk(await invite(draft.id, { email: 'x@example.com', role: 'admin' }), 201);
  });

  it('validates the body: e-mail, role, expiry, unknown fields', async () => {
    const event = await events.createTeamEvent();
    const bad = expectError(
      await invite(event.id, { email: 'not-an-email', role: 'owner', expires_in_days: 0, extra: 1 }),
      400,
      'VALIDATION_ERROR',
    );
    const fields = (bad.fields ?? []).map((field) => field.field).sort();
    for (const field of ['email', 'role', 'expires_in_days']) assert.ok(fields.includes(field), field);
  });

  it('409 already_member for a member, already_invited while one is pending (any case of the e-mail)', async () => {
    const event = await events.createTeamEvent();
    const member = expectError(
      await invite(event.id, { email: staff.email, role: 'staff' }),
      409,
      'CONFLICT',
    );
    assert.equal(member.reason, 'already_member');
    expectOk(await invite(event.id, { email: 'Twice@Example.com', role: 'staff' }), 201);
    const twice = expectError(
      await invite(event.id, { email: 'twice@example.com', role: 'admin' }),
      409,
      'CONFLICT',
    );
    assert.equal(twice.reason, 'already_invited');
  });

  it('the invitee is a member from their first authenticated request, and the invitation is accepted', async () => {
    const event = await events.createTeamEvent();
    const newcomer = await t.user('Newcomer');
    const made = expectOk(
      await invite(event.id, { email: newcomer.email.toUpperCase(), role: 'staff' }),
      201,
    );
    // Their first call to any route records them.
    expectOk(await t.get('/events/mine', { token: newcomer.token }));
    const members = await events.listMembers(owner, event.id);
    assert.equal(members.find((member) => member.user_id === newcomer.id)?.role, 'staff');
    const [after] = expectOk(
      await t.get<Invitation[]>(`/events/${event.id}/invitations?status=accepted`, { token: owner.token }),
    );
    assert.equal(after?.id, made.id);
    assert.ok(after?.ended_at !== null);
    const withdraw = expectError(
      await t.delete(`/events/${event.id}/invitations/${made.id}`, { token: owner.token }),
      409,
      'CONFLICT',
    );
    assert.equal(withdraw.reason, 'invitation_not_pending');
  });

  it('a withdrawn or expired invitation makes no member', async () => {
    const event = await events.createTeamEvent();
    const late = await t.user('Late');
    const gone = await t.user('Gone');
    const expired = expectOk(await invite(event.id, { email: late.email, role: 'staff' }), 201);
    await queryRows(
      t.db,
      sql`update event_invitations set expires_at = now() - interval '1 minute' where id = ${expired.id}`,
    );
    const withdrawn = expectOk(await invite(event.id, { email: gone.email, role: 'staff' }), 201);
    const ended = expectOk(
      await t.delete<Invitation>(`/events/${event.id}/invitations/${withdrawn.id}`, { token: admin.token }),
    );
    assert.equal(ended.status, 'withdrawn');
    expectOk(await t.get('/events/mine', { token: late.token }));
    expectOk(await t.get('/events/mine', { token: gone.token }));
    const members = (await events.listMembers(owner, event.id)).map((member) => member.user_id);
    assert.ok(!members.includes(late.id) && !members.includes(gone.id));
    const listed = expectOk(
      await t.get<Invitation[]>(`/events/${event.id}/invitations`, { token: owner.token }),
    );
    assert.equal(listed.find((item) => item.id === expired.id)?.status, 'expired');
    expectError(
      await t.delete(`/events/${event.id}/invitations/${UNKNOWN_ID}`, { token: owner.token }),
      404,
      'NOT_FOUND',
    );
  });
});
