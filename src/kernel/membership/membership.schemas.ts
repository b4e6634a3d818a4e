/**
 * The schemas of a membership (event members, project members): one member shape and the add and
 * remove bodies, made per module from its roles and the name of its e-mail field.
 */
import { type TLiteral, type TSchema, type TString, type TUnion, Type } from 'typebox';
import { DateTime, Email, Uuid } from '../http/schemas.ts';

export interface MemberSchemaOptions<E extends string, Role extends TSchema, A extends string> {
  /** The module's role union (owner first). */
  role: Role;
  /** The roles an add may give, in the order the API documents them. */
  addableRoles: readonly [A, A];
  /** The body field naming the person (`email` for events, `actor_email` for projects). */
  emailField: E;
  addEmailDescription: string;
  removeEmailDescription: string;
  /** The role of the examples. */
  exampleRole: string;
  /** The member's name in the OpenAPI document's `components.schemas` (`EventMember`). */
  title: string;
}

type EmailFields<E extends string> = { [K in E]: TString };

export function memberSchemas<E extends string, Role extends TSchema, A extends string>(
  options: MemberSchemaOptions<E, Role, A>,
) {
  const { emailField: field, exampleRole } = options;
  const Member = Type.Object(
    {
      user_id: Uuid(),
      email: Type.String(),
      role: options.role,
      created_at: DateTime(),
    },
    { title: options.title },
  );
  const example = {
    user_id: '01937a4e-0000-7000-8000-000000000002',
    email: 'bea@example.com',
    role: exampleRole,
    created_at: '2026-11-22T10:00:00.000Z',
  };
  const [first, second] = options.addableRoles;
  const AddBody = Type.Object(
    {
      [field]: Email({ description: options.addEmailDescription }),
      role: Type.Union([Type.Literal(first), Type.Literal(second)], {
        description: 'only the owner may add an admin',
      }),
    } as EmailFields<E> & { role: TUnion<[TLiteral<A>, TLiteral<A>]> },
    { additionalProperties: false, examples: [{ [field]: 'bea@example.com', role: exampleRole }] },
  );
  const RemoveBody = Type.Object(
    { [field]: Email({ description: options.removeEmailDescription }) } as EmailFields<E>,
    { additionalProperties: false, examples: [{ [field]: 'bea@example.com' }] },
  );
  return { Member, example, AddBody, RemoveBody };
}
