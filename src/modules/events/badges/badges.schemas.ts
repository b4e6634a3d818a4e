/** Schemas of badge templates, badge emissions, print data and a user's badges (docs/reference/tickets.md). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, PageQuery, Uuid } from '../../../kernel/http/schemas.ts';
import { EDITION_EXAMPLE } from '../editions/index.ts';
import { EVENT_EXAMPLE } from '../events/index.ts';
import { TICKET_TYPE_EXAMPLE } from '../tickets/index.ts';

/** `design_data` as JSON may not exceed this many bytes (UTF-8). */
export const DESIGN_DATA_MAX_BYTES = 256 * 1024;

/** Any JSON object (never an array); `Record` gives handlers `Record<string, unknown>`. */
const DesignData = Type.Record(Type.String(), Type.Unknown(), {
  description: `free-form design content: a JSON object of at most ${DESIGN_DATA_MAX_BYTES / 1024} KiB (its JSON text in UTF-8)`,
});

// ---------- templates ----------

export const BadgeTemplate = Type.Object(
  {
    id: Uuid(),
    edition_id: Uuid(),
    name: Type.String(),
    design_data: DesignData,
    origin: Nullable(Type.Literal('staff')),
    ticket_type_id: Nullable(Uuid()),
    scope: Type.String({
      description: '`default`, `staff` or `ticket:<ticket_type_id>`; one live template each',
    }),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  { title: 'BadgeTemplate' },
);
export type BadgeTemplate = Static<typeof BadgeTemplate>;

const TemplateName = Type.String({ minLength: 1, maxLength: 200 });

export const CreateBadgeTemplateBody = Type.Object(
  {
    name: TemplateName,
    design_data: DesignData,
    origin: Type.Optional(
      Type.Literal('staff', { description: 'the template of staff badges; not with `ticket_type_id`' }),
    ),
    ticket_type_id: Type.Optional(
      Uuid({ description: 'the template of this ticket type (of the same edition); not with `origin`' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Attendee badge',
        design_data: { width: 90, height: 120, background: '#0b3d91', layout: 'portrait' },
      },
    ],
  },
);
export type CreateBadgeTemplateBody = Static<typeof CreateBadgeTemplateBody>;

export const UpdateBadgeTemplateBody = Type.Object(
  { name: Type.Optional(TemplateName), design_data: Type.Optional(DesignData) },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'Attendee badge (v2)' }] },
);
export type UpdateBadgeTemplateBody = Static<typeof UpdateBadgeTemplateBody>;

export const BADGE_TEMPLATE_EXAMPLE = {
  id: '01937a52-4444-7000-8000-000000000040',
  edition_id: EDITION_EXAMPLE.id,
  name: 'Attendee badge',
  design_data: { width: 90, height: 120, background: '#0b3d91', layout: 'portrait' },
  origin: null,
  ticket_type_id: null,
  scope: 'default',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  deleted_at: null,
};

// ---------- emissions ----------

export const EmissionOrigin = Type.Union([Type.Literal('participant'), Type.Literal('staff')]);
export const EmissionStatus = Type.Union([Type.Literal('active'), Type.Literal('revoked')]);

const emissionFields = {
  id: Uuid(),
  user_id: Uuid(),
  origin: EmissionOrigin,
  status: EmissionStatus,
  status_reason: Nullable(
    Type.Union(
      [Type.Literal('registration_cancelled'), Type.Literal('member_removed'), Type.Literal('refunded')],
      {
        description: 'why a badge was revoked; null while active',
      },
    ),
  ),
  ticket_name: Nullable(Type.String({ description: 'participant badges: the ticket type; staff: null' })),
  template_id: Nullable(Uuid({ description: 'the template that applies now; null when there is none' })),
  template_name: Nullable(Type.String()),
  emitted_at: DateTime({ description: 'the latest (re-)activation' }),
  updated_at: DateTime(),
};

/** Badge emission of the interface document, plus the holder's e-mail (organizers only). */
export const BadgeEmission = Type.Object(
  {
    ...emissionFields,
    holder_email: Type.String({ description: "the holder's e-mail (actor directory)" }),
  },
  { title: 'BadgeEmission' },
);
export type BadgeEmission = Static<typeof BadgeEmission>;

export const EmissionListQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(EmissionStatus) },
  { additionalProperties: false },
);

export const EMISSION_EXAMPLE = {
  id: '01937a53-5555-7000-8000-000000000050',
  user_id: '01937a4e-0000-7000-8000-000000000003',
  origin: 'participant',
  status: 'active',
  status_reason: null,
  ticket_name: TICKET_TYPE_EXAMPLE.name,
  template_id: BADGE_TEMPLATE_EXAMPLE.id,
  template_name: BADGE_TEMPLATE_EXAMPLE.name,
  emitted_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  holder_email: 'carla@example.com',
};

// ---------- print data ----------

export const PrintQuery = Type.Object(
  {
    emission_ids: Type.Optional(
      // Both forms in the schema, so a generated client types it `string | string[]`.
      Type.Union(
        [
          Type.String({ maxLength: 40_000, description: 'comma-separated: `?emission_ids=a,b`' }),
          Type.Array(Type.String({ maxLength: 40_000 }), {
            maxItems: 1000,
            description: 'repeated: `?emission_ids=a&emission_ids=b`',
          }),
        ],
        {
          description:
            'emission ids, comma-separated or repeated, each a UUID; default: every active emission of ' +
            'the edition',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const BadgePrintItem = Type.Object({
  emission_id: Uuid(),
  user_id: Uuid(),
  origin: EmissionOrigin,
  ticket_name: Nullable(Type.String()),
  template_id: Nullable(Uuid()),
  template_name: Nullable(Type.String()),
  design_data: Type.Record(Type.String(), Type.Unknown(), {
    description: "the template's design; `{}` when no template applies",
  }),
  variables: Type.Object({
    event_name: Type.String(),
    edition_name: Type.String(),
    ticket_name: Nullable(Type.String()),
    holder_email: Type.String(),
    holder_name: Type.String({
      description: "the holder's name (the `name` claim of their token), else their e-mail",
    }),
    action_url: Type.String({
      description:
        "`PUBLIC_BASE_URL/b/<code>`: the badge's own page; what its QR code holds and a check-in scans",
    }),
  }),
});
export type BadgePrintItemData = Static<typeof BadgePrintItem>;

export const PRINT_ITEM_EXAMPLE = {
  emission_id: EMISSION_EXAMPLE.id,
  user_id: EMISSION_EXAMPLE.user_id,
  origin: 'participant',
  ticket_name: TICKET_TYPE_EXAMPLE.name,
  template_id: BADGE_TEMPLATE_EXAMPLE.id,
  template_name: BADGE_TEMPLATE_EXAMPLE.name,
  design_data: BADGE_TEMPLATE_EXAMPLE.design_data,
  variables: {
    event_name: EVENT_EXAMPLE.name,
    edition_name: EDITION_EXAMPLE.name,
    ticket_name: TICKET_TYPE_EXAMPLE.name,
    holder_email: EMISSION_EXAMPLE.holder_email,
    holder_name: 'Carla Mendes',
    action_url: 'https://api.convene.example/b/AZN6UCIicACAgAAAAAAAMKoGkQ-6n5mBvt3uPnn8y2Q',
  },
};

// ---------- a user's badges ----------

export const UserBadge = Type.Object(
  {
    ...emissionFields,
    edition: Type.Object({
      id: Uuid(),
      name: Type.String(),
      slug: Type.String(),
      starts_at: DateTime(),
      ends_at: DateTime(),
    }),
    event: Type.Object({ id: Uuid(), name: Type.String(), slug: Type.String() }),
  },
  { title: 'UserBadge' },
);
export type UserBadge = Static<typeof UserBadge>;

const BadgeGroup = Type.Object({
  current: Type.Array(UserBadge, { description: 'editions not yet ended, soonest first' }),
  past: Type.Array(UserBadge, { description: 'ended editions, most recent first' }),
});

export const UserBadges = Type.Object({ attendant: BadgeGroup, staff: BadgeGroup }, { title: 'UserBadges' });

const { holder_email: _private, ...PUBLIC_EMISSION_EXAMPLE } = EMISSION_EXAMPLE;
const USER_BADGE_EXAMPLE = {
  ...PUBLIC_EMISSION_EXAMPLE,
  edition: {
    id: EDITION_EXAMPLE.id,
    name: EDITION_EXAMPLE.name,
    slug: EDITION_EXAMPLE.slug,
    starts_at: EDITION_EXAMPLE.starts_at,
    ends_at: EDITION_EXAMPLE.ends_at,
  },
  event: { id: EVENT_EXAMPLE.id, name: EVENT_EXAMPLE.name, slug: EVENT_EXAMPLE.slug },
};

export const USER_BADGES_EXAMPLE = {
  attendant: { current: [USER_BADGE_EXAMPLE], past: [] },
  staff: { current: [], past: [] },
};

export type UserBadges = Static<typeof UserBadges>;
export type BadgePrintItem = Static<typeof BadgePrintItem>;
