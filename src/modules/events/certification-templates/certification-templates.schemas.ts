/**
 * Schemas of certification templates and their program links (docs/reference/events.md): one source for
 * validation, handler types and OpenAPI. The template is the Certification template resource of
 * the interface document.
 */
import { type Static, Type } from 'typebox';
import { DateTime, Name, Nullable, Uuid } from '../../../kernel/http/schemas.ts';
import { EDITION_EXAMPLE } from '../editions/index.ts';
import { PROGRAM_EXAMPLE } from '../programs/index.ts';

/** Largest `design_data`, measured as the UTF-8 byte length of its JSON text. */
export const MAX_DESIGN_BYTES = 256 * 1024;

const CertificationKind = () =>
  Type.Union([Type.Literal('edition_attendance'), Type.Literal('program_attendance')], {
    description: 'a `program_attendance` template is linked to programs after it is created',
  });
/** Any JSON object (never an array); `Record` gives handlers `Record<string, unknown>`. */
const DesignData = (options: { default?: Record<string, never>; description?: string } = {}) =>
  Type.Record(Type.String(), Type.Unknown(), {
    description: 'free-form design content: a JSON object of at most 256 KiB (its JSON text in UTF-8)',
    ...options,
  });

export const CertificationTemplate = Type.Object(
  {
    id: Uuid(),
    edition_id: Uuid(),
    kind: CertificationKind(),
    name: Type.String(),
    description: Nullable(Type.String()),
    design_data: DesignData({ description: 'free-form design content' }),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  { title: 'CertificationTemplate' },
);
export type CertificationTemplate = Static<typeof CertificationTemplate>;

const DESIGN_EXAMPLE = {
  width: 842,
  height: 595,
  background_url: 'https://cdn.example.com/certificate.png',
  elements: [{ type: 'text', value: '{{ holder_name }}', x: 421, y: 300, size: 32 }],
};

export const CreateCertificationTemplateBody = Type.Object(
  {
    kind: CertificationKind(),
    name: Name(1),
    description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
    design_data: Type.Optional(DesignData({ default: {} })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        kind: 'program_attendance',
        name: 'Workshop attendance',
        description: 'Given to everyone who attended a workshop',
        design_data: DESIGN_EXAMPLE,
      },
    ],
  },
);
export type CreateCertificationTemplateBody = Static<typeof CreateCertificationTemplateBody>;

export const UpdateCertificationTemplateBody = Type.Object(
  {
    kind: Type.Optional(CertificationKind()),
    name: Type.Optional(Name(1)),
    description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
    design_data: Type.Optional(DesignData()),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ name: 'Workshop certificate', design_data: { ...DESIGN_EXAMPLE, width: 1024 } }],
  },
);
export type UpdateCertificationTemplateBody = Static<typeof UpdateCertificationTemplateBody>;

/** A preview's edits, none saved: each given field replaces the template's own for the drawing. */
export const PreviewCertificationTemplateBody = Type.Object(
  {
    name: Type.Optional(Name(1)),
    description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
    design_data: Type.Optional(DesignData()),
    holder_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'the name drawn as the holder’s (default: “Ana Souza”, a sample)',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ design_data: { title: 'Certificate of attendance', accent_color: '#1f4fbf' } }],
  },
);
export type PreviewCertificationTemplateBody = Static<typeof PreviewCertificationTemplateBody>;

export const CERTIFICATION_TEMPLATE_EXAMPLE = {
  id: '01937a51-3333-7000-8000-000000000030',
  edition_id: EDITION_EXAMPLE.id,
  kind: 'program_attendance',
  name: 'Workshop attendance',
  description: 'Given to everyone who attended a workshop',
  design_data: DESIGN_EXAMPLE,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  deleted_at: null,
};

// ---------- links ----------

export const LinkBody = Type.Object(
  { program_id: Uuid({ description: 'a live program of the same edition' }) },
  { additionalProperties: false, examples: [{ program_id: PROGRAM_EXAMPLE.id }] },
);
export type LinkBody = Static<typeof LinkBody>;

/** A link as created or removed. */
export const TemplateLink = Type.Object(
  {
    template_id: Uuid(),
    program_id: Uuid(),
    created_at: DateTime(),
  },
  { title: 'TemplateLink' },
);

/** A link as listed under its template (docs/reference/events.md: `{program_id, created_at}`). */
export const LinkedProgram = Type.Object(
  { program_id: Uuid(), created_at: DateTime() },
  { title: 'LinkedProgram' },
);

export const LINK_EXAMPLE = {
  template_id: CERTIFICATION_TEMPLATE_EXAMPLE.id,
  program_id: PROGRAM_EXAMPLE.id,
  created_at: '2026-11-22T10:05:00.000Z',
};

export type LinkedProgram = Static<typeof LinkedProgram>;
export type TemplateLink = Static<typeof TemplateLink>;
