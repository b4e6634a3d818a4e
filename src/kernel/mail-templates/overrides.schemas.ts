/**
 * Schemas of e-mail template overrides, for each family of templates (a project's, an event's): the
 * effective template of a kind, the override body, the preview body and its result. One source for
 * validation, handler types and OpenAPI; a family names its own path parameter, kinds and examples.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { Uuid } from '../http/schemas.ts';

/** 100 KiB, in characters. */
export const MAX_BODY = 102_400;

export const TemplateVariable = Type.Object({
  name: Type.String(),
  description: Type.String(),
  required: Type.Boolean({ description: 'must appear in the body' }),
  example: Type.Union([Type.String(), Type.Number()], { description: 'the sample value used by previews' }),
});

export const RenderedEmail = Type.Object(
  {
    subject: Type.String({ description: 'rendered subject, one line, not HTML-escaped' }),
    html: Type.String({ description: 'rendered HTML body, values HTML-escaped' }),
    text: Type.String({ description: 'plain-text alternative derived from the HTML' }),
  },
  { title: 'RenderedEmail' },
);
export type RenderedEmail = Static<typeof RenderedEmail>;

const Subject = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Liquid template, 1..200 characters',
});

export interface FamilySchemaOptions<P extends string> {
  /** The owner's path parameter (`project_id`, `event_id`). */
  param: P;
  kinds: readonly string[];
  /** The schema title of the effective template (unique in the document). */
  title: string;
  /** What the body must use, for its description (`{{ action_url }}`; each kind's link). */
  required: string;
  overrideExample: { subject: string; body: string };
  previewExample: Record<string, unknown>;
}

export function templateSchemas<P extends string>(options: FamilySchemaOptions<P>) {
  const Params = Type.Object(
    {
      [options.param]: Uuid(),
      kind: Type.String({
        maxLength: 64,
        description: `the template kind: ${options.kinds.join(', ')} (any other value is 404)`,
        examples: [options.kinds[0]],
      }),
    } as Record<P, ReturnType<typeof Uuid>> & { kind: TSchema },
    { additionalProperties: false },
  );
  const EmailTemplate = Type.Object(
    {
      kind: Type.String({ description: options.kinds.join(', ') }),
      subject: Type.String({ description: 'Liquid template' }),
      body: Type.String({ description: 'Liquid template of the HTML body' }),
      source: Type.Union([Type.Literal('default'), Type.Literal('override')]),
      variables: Type.Array(TemplateVariable, { description: 'the variables the kind declares' }),
    },
    { title: options.title },
  );
  const Body = Type.String({
    minLength: 1,
    maxLength: MAX_BODY,
    description: `Liquid template of the HTML body, 1..102400 characters; must use ${options.required}`,
  });
  const PutBody = Type.Object(
    { subject: Subject, body: Body },
    { additionalProperties: false, examples: [options.overrideExample] },
  );
  const PreviewBody = Type.Object(
    {
      subject: Type.Optional(Subject),
      body: Type.Optional(Body),
      variables: Type.Optional(
        Type.Record(
          Type.String({ maxLength: 64 }),
          Type.Union([Type.String({ maxLength: 2048 }), Type.Number()]),
          {
            maxProperties: 16,
            description:
              "values of the kind's declared variables (others are 400); missing ones take the sample values",
          },
        ),
      ),
    },
    { additionalProperties: false, examples: [options.previewExample] },
  );
  return { Params, EmailTemplate, PutBody, PreviewBody };
}
