/**
 * Members added and removed by the e-mail of an existing actor, the same for events and projects:
 * the owner is a member that cannot be removed, and only the owner adds or removes an admin. A
 * module makes its membership with `membership(config)`, giving its table (through its
 * repository), its roles, its guard and its words; events also wrap each write in the event lock
 * and follow it with the member's staff badges (`around`).
 */
import { findActorByEmail } from '../auth/actors.repository.ts';
import type { Identity } from '../auth/identity.ts';
import type { Database, Executor } from '../db/client.ts';
import type { Window } from '../db/paging.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { serialize } from '../http/respond.ts';
import type { MembershipRepository } from './membership.repository.ts';

export interface MembershipConfig<R extends string> {
  repository: MembershipRepository<R>;
  /** The module's guard: the caller's role on the parent, 404 when hidden, 403 below `minimum`. */
  requireRole(db: Database, parentId: string, actor: Identity, minimum: R): Promise<{ role: R }>;
  /** Who may list the members. */
  listRole: R;
  /** What the parent is called in messages: `event`, `project`. */
  noun: string;
  /**
   * Runs a member write (`write` with the executor to use) inside what the module needs around
   * it; without it, the write runs alone.
   */
  around?(
    db: Database,
    parentId: string,
    userId: string,
    change: 'added' | 'removed',
    write: (tx: Executor) => Promise<void>,
  ): Promise<void>;
}

export function membership<R extends string>(config: MembershipConfig<R>) {
  const { repository: repo, noun } = config;
  const alreadyMember = (role: R) =>
    conflict('already_member', `This person is already a member of the ${noun}`, { role });
  const write = (
    db: Database,
    parentId: string,
    userId: string,
    change: 'added' | 'removed',
    run: (tx: Executor) => Promise<void>,
  ) => (config.around === undefined ? run(db) : config.around(db, parentId, userId, change, run));
  const article = /^[aeiou]/.test(noun) ? 'an' : 'a';

  return {
    async list(db: Database, parentId: string, actor: Identity, window: Window) {
      await config.requireRole(db, parentId, actor, config.listRole);
      const page = await repo.list(db, parentId, window);
      return { ...page, items: page.items.map(serialize) };
    },

    async add(db: Database, parentId: string, actor: Identity, email: string, role: R) {
      // 1. Authorization, before anything about the person is looked up.
      const { role: callerRole } = await config.requireRole(db, parentId, actor, 'admin' as R);
      if (role === 'admin' && callerRole !== 'owner') throw forbidden('Only the owner may add an admin');
      // 2. The person must be in the actor directory.
      const person = await findActorByEmail(db, email);
      if (person === undefined)
        throw new AppError('NOT_FOUND', 'No actor has this e-mail; they must call the API once first');
      // 3. Not a member yet. A concurrent add of the same person inserts nothing (`on conflict do
      //    nothing`) and gets the same 409, with nothing else of the write done.
      const existing = await repo.find(db, parentId, person.user_id);
      if (existing !== undefined) throw alreadyMember(existing.role);
      await write(db, parentId, person.user_id, 'added', async (tx) => {
        if (await repo.insert(tx, parentId, person.user_id, role)) return;
        const winner = await repo.find(tx, parentId, person.user_id);
        throw alreadyMember(winner?.role ?? role);
      });
      const member = await repo.find(db, parentId, person.user_id);
      return serialize(member!);
    },

    /**
     * Removes the member named by `email`: the caller's role, then the member (404), then the owner
     * who stays (409), then an admin only the owner removes (403). `pathUserId` (events: the path's
     * `user_id`) does not select the member; it is only cross-checked: naming a *different*
     * member there is a 400, any other UUID is ignored.
     */
    async remove(db: Database, parentId: string, actor: Identity, email: string, pathUserId?: string) {
      const { role: callerRole } = await config.requireRole(db, parentId, actor, 'admin' as R);
      const member = await repo.findByEmail(db, parentId, email);
      if (member === undefined) throw notFound('Member');
      if (pathUserId !== undefined && pathUserId.toLowerCase() !== member.user_id) {
        const pathMember = await repo.find(db, parentId, pathUserId);
        if (pathMember !== undefined) {
          throw badRequest('member_mismatch', 'The path user_id names a different member than the e-mail', [
            { field: 'params.user_id', message: 'names a different member than email' },
          ]);
        }
      }
      if (member.role === 'owner')
        throw conflict('owner_not_removable', `The owner of ${article} ${noun} cannot be removed`);
      if (member.role === 'admin' && callerRole !== 'owner')
        throw forbidden('Only the owner may remove an admin');
      await write(db, parentId, member.user_id, 'removed', (tx) => repo.delete(tx, parentId, member.user_id));
      return serialize(member);
    },
  };
}
