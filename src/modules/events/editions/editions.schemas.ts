/** Schemas of editions (docs/reference/events.md): one source for validation, handler types and OpenAPI. */
import { type Static, Type } from 'typebox';
import { DateTime, Email, HttpUrl, Name, Nullable, Slug, Text, Uuid } from '../../../kernel/http/schemas.ts';
import { EVENT_EXAMPLE } from '../events/index.ts';

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

export const Edition = Type.Object(
  {
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
  },
  { title: 'Edition' },
);

export type Edition = Static<typeof Edition>;

export const CreateEditionBody = Type.Object(
  {
    name: Name(),
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
    name: Type.Optional(Name()),
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
