/**
 * Schemas of events: one source for validation, handler types and OpenAPI.
 */
import { type Static, Type } from 'typebox';
import { DateTime, Email, HttpUrl, Name, Nullable, Slug, Text, Uuid } from '../../../kernel/http/schemas.ts';

// ---------- events ----------

export const Event = Type.Object(
  {
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
  },
  { title: 'Event' },
);
export type Event = Static<typeof Event>;

export const EventRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('staff')]);
export const MyEvent = Type.Object({ ...Event.properties, role: EventRole }, { title: 'MyEvent' });

const eventFields = {
  name: Name(),
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
    name: Type.Optional(Name()),
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

export type MyEvent = Static<typeof MyEvent>;
