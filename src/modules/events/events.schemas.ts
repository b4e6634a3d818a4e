/**
 * Schemas of events, members and editions: one source for validation, handler types and OpenAPI.
 */
import { type Static, Type } from 'typebox';
import { DateTime, Email, HttpUrl, Nullable, Slug, Uuid } from '../../kernel/http/schemas.ts';

const Name = Type.String({ minLength: 2, maxLength: 200 });
const Text = (maxLength: number) => Type.String({ maxLength });

// ---------- events ----------

export const Event = Type.Object({
  id: Uuid(),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  contact_email: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  banner_url: Nullable(Type.String()),
  status: Type.Union([Type.Literal('draft'), Type.Literal('active')]),
  owner_id: Uuid(),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type Event = Static<typeof Event>;

export const EventRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('staff')]);
export const MyEvent = Type.Object({ ...Event.properties, role: EventRole });

const eventFields = {
  name: Name,
  slug: Slug(),
  description: Type.Optional(Nullable(Text(5000))),
  contact_email: Type.Optional(Nullable(Email())),
  logo_url: Type.Optional(Nullable(HttpUrl())),
  banner_url: Type.Optional(Nullable(HttpUrl())),
};

export const CreateEventBody = Type.Object(eventFields, {
  additionalProperties: false,
  examples: [
    {
      name: 'RustConf Lisbon',
      slug: 'rustconf-lisbon',
      description: 'The yearly Rust conference in Lisbon',
      contact_email: 'hello@rustconf.example',
    },
  ],
});
export type CreateEventBody = Static<typeof CreateEventBody>;

export const UpdateEventBody = Type.Object(
  {
    name: Type.Optional(Name),
    slug: Type.Optional(Slug()),
    description: eventFields.description,
    contact_email: eventFields.contact_email,
    logo_url: eventFields.logo_url,
    banner_url: eventFields.banner_url,
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'RustConf Lisboa' }] },
);
export type UpdateEventBody = Static<typeof UpdateEventBody>;

export const EVENT_EXAMPLE = {
  id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f',
  name: 'RustConf Lisbon',
  slug: 'rustconf-lisbon',
  description: 'The yearly Rust conference in Lisbon',
  contact_email: 'hello@rustconf.example',
  logo_url: null,
  banner_url: null,
  status: 'draft',
  owner_id: '01937a4e-0000-7000-8000-000000000001',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const EventSlugParams = Type.Object(
  { event_slug: Slug({ description: 'the event slug, followed by the literal `:by-slug`' }) },
  { additionalProperties: false },
);

// ---------- members ----------

export const Member = Type.Object({
  user_id: Uuid(),
  email: Type.String(),
  role: EventRole,
  created_at: DateTime(),
});
export type Member = Static<typeof Member>;

export const MEMBER_EXAMPLE = {
  user_id: '01937a4e-0000-7000-8000-000000000002',
  email: 'bea@example.com',
  role: 'staff',
  created_at: '2026-11-22T10:00:00.000Z',
};

export const AddMemberBody = Type.Object(
  {
    email: Email({ description: 'e-mail of an existing actor (someone who has called the API before)' }),
    role: Type.Union([Type.Literal('admin'), Type.Literal('staff')], {
      description: 'only the owner may add an admin',
    }),
  },
  { additionalProperties: false, examples: [{ email: 'bea@example.com', role: 'staff' }] },
);

export const RemoveMemberBody = Type.Object(
  { email: Email({ description: 'the member to remove; the path user_id does not select the member' }) },
  { additionalProperties: false, examples: [{ email: 'bea@example.com' }] },
);

// ---------- editions ----------

export const Edition = Type.Object({
  id: Uuid(),
  event_id: Uuid(),
  name: Type.String(),
  slug: Type.String(),
  tagline: Nullable(Type.String()),
  description: Nullable(Type.String()),
  is_draft: Type.Boolean(),
  registration_opens_at: Nullable(DateTime()),
  starts_at: DateTime(),
  ends_at: DateTime(),
  location_name: Nullable(Type.String()),
  location_description: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  banner_url: Nullable(Type.String()),
  contact_email: Nullable(Type.String()),
  created_by: Uuid(),
  created_at: DateTime(),
  updated_at: DateTime(),
  deleted_at: Nullable(DateTime()),
});
export type Edition = Static<typeof Edition>;

const editionOptionalFields = {
  tagline: Type.Optional(Nullable(Text(300))),
  description: Type.Optional(Nullable(Text(10_000))),
  registration_opens_at: Type.Optional(Nullable(DateTime({ description: 'not after starts_at' }))),
  location_name: Type.Optional(Nullable(Text(200))),
  location_description: Type.Optional(Nullable(Text(2000))),
  logo_url: Type.Optional(Nullable(HttpUrl())),
  banner_url: Type.Optional(Nullable(HttpUrl())),
  contact_email: Type.Optional(Nullable(Email())),
};

export const CreateEditionBody = Type.Object(
  {
    name: Name,
    slug: Slug({ description: 'unique among the live editions of the event' }),
    starts_at: DateTime(),
    ends_at: DateTime({ description: 'after starts_at' }),
    ...editionOptionalFields,
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'RustConf Lisbon 2027',
        slug: '2027',
        starts_at: '2027-06-10T09:00:00.000Z',
        ends_at: '2027-06-12T18:00:00.000Z',
        location_name: 'Centro de Congressos de Lisboa',
      },
    ],
  },
);
export type CreateEditionBody = Static<typeof CreateEditionBody>;

export const UpdateEditionBody = Type.Object(
  {
    name: Type.Optional(Name),
    slug: Type.Optional(Slug()),
    starts_at: Type.Optional(DateTime()),
    ends_at: Type.Optional(DateTime()),
    ...editionOptionalFields,
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ tagline: 'Three days of Rust by the river', ends_at: '2027-06-13T18:00:00.000Z' }],
  },
);
export type UpdateEditionBody = Static<typeof UpdateEditionBody>;

export const EDITION_EXAMPLE = {
  id: '01937a4f-1111-7000-8000-000000000010',
  event_id: EVENT_EXAMPLE.id,
  name: 'RustConf Lisbon 2027',
  slug: '2027',
  tagline: null,
  description: null,
  is_draft: true,
  registration_opens_at: null,
  starts_at: '2027-06-10T09:00:00.000Z',
  ends_at: '2027-06-12T18:00:00.000Z',
  location_name: 'Centro de Congressos de Lisboa',
  location_description: null,
  logo_url: null,
  banner_url: null,
  contact_email: null,
  created_by: EVENT_EXAMPLE.owner_id,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  deleted_at: null,
};

export const EditionSlugParams = Type.Object(
  {
    event_slug: Slug({ description: 'the event slug, followed by `:by-slug`' }),
    edition_slug: Slug({ description: 'the edition slug, followed by `:by-slug`' }),
  },
  { additionalProperties: false },
);
