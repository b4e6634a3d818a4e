/**
 * Rendering and validation of e-mail templates with LiquidJS (the projects' templates and the
 * events' mails), configured so that a template written by an organiser or a project admin can
 * neither reach the file system nor hang or exhaust the service:
 *
 * - no file system: the partial tags (`include`, `render`, `layout`, `block`) are removed, and the
 *   engine looks templates up in an empty in-memory map (`templates: {}`) should any remain;
 * - values are HTML-escaped in the body (`outputEscape: 'escape'`); the subject is rendered by a
 *   second engine without escaping (it is not HTML), then its line breaks are removed;
 * - `strictVariables`, `strictFilters`, `ownPropertyOnly` (no prototype properties such as
 *   `constructor`), `lenientIf` (an optional value may be tested with `if` or `default`);
 * - limits: `parseLimit` (template size), `renderLimit` (wall time of one render) and `memoryLimit`
 *   (what ranges, loops and filters may allocate), plus a cap on the rendered size.
 *
 * An override is validated on save: it must parse, use only the kind's declared variables, use
 * each of its required variables (a kind's link) in the body, and render with the sample values
 * within the limits. What a kind declares is its `TemplateCatalog`, given by the feature that owns it.
 */
import { compile, type HtmlToTextOptions } from 'html-to-text';
import { Liquid, type Template } from 'liquidjs';
import { LRUCache } from 'lru-cache';
import { AppError, type FieldError, validationError } from '../http/errors.ts';

export interface TemplateVariable {
  name: string;
  description: string;
  /** Must appear in the body of every template of the kind. */
  required: boolean;
  /** The sample value used by previews and the default rendering. */
  example: string | number;
}

/** A variable of a mail kind's template: what the lists of variables are written with. */
export const templateVariable = (
  name: string,
  description: string,
  example: string,
  required = false,
): TemplateVariable => ({ name, description, required, example });

/** What one kind of template declares: its name (for messages) and its variables. */
export interface TemplateCatalog {
  kind: string;
  variables: TemplateVariable[];
}

/** The sample values of a kind's variables. */
export function sampleValues(catalog: TemplateCatalog): Record<string, string | number> {
  return Object.fromEntries(catalog.variables.map((v) => [v.name, v.example]));
}

export const LIMITS = {
  /** Characters a template may have (the body is capped at 100 KiB by the schema too). */
  parseLimit: 102_400,
  /** Milliseconds one render may take. */
  renderLimit: 500,
  /** Allocation budget (characters of strings, items of arrays and ranges) of one render. */
  memoryLimit: 2_000_000,
  /** Characters a rendered body may have. */
  outputLimit: 1_048_576,
} as const;

const REMOVED_TAGS = ['include', 'render', 'layout', 'block'];

function engine(escapeHtml: boolean): Liquid {
  const liquid = new Liquid({
    ...(escapeHtml ? { outputEscape: 'escape' as const } : {}),
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    lenientIf: true,
    templates: {},
    cache: false,
    parseLimit: LIMITS.parseLimit,
    renderLimit: LIMITS.renderLimit,
    memoryLimit: LIMITS.memoryLimit,
  });
  const tags = liquid.tags as Record<string, unknown>;
  for (const name of REMOVED_TAGS) delete tags[name];
  return liquid;
}

const htmlEngine = engine(true);
const plainEngine = engine(false);

/**
 * Parsed templates by engine and source: every mail of a kind renders the same few sources (the
 * defaults, an event's override), and parsing one was half of a render's ~2 ms. Bounded; a parse
 * still counts against `parseLimit` the first time.
 */
const parsed = new LRUCache<string, Template[]>({ max: 256 });

function parseOnce(liquid: Liquid, source: string): Template[] {
  const key = `${liquid === htmlEngine ? 'h' : 'p'}${source}`;
  let templates = parsed.get(key);
  if (templates === undefined) {
    templates = liquid.parse(source);
    parsed.set(key, templates);
  }
  return templates;
}

export type Variables = Record<string, string | number>;

export interface TemplateSource {
  subject: string;
  body: string;
}

/**
 * A template with what it declares and the values to render it with: what a mail's renderer
 * answers (docs/mail.md), rendered later in the mail thread by `renderDraft`.
 */
export interface TemplateDraft {
  template: TemplateCatalog & TemplateSource;
  values: Variables;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Parses one part and checks its variables; pushes the problems to `fields`. */
function checkPart(
  liquid: Liquid,
  field: 'subject' | 'body',
  source: string,
  declared: Set<string>,
  required: readonly string[],
  fields: FieldError[],
): Template[] | undefined {
  let templates: Template[];
  try {
    templates = liquid.parse(source);
  } catch (error) {
    fields.push({ field, message: `does not parse: ${message(error)}` });
    return undefined;
  }
  let used: string[];
  try {
    used = liquid.globalVariablesSync(templates);
  } catch (error) {
    fields.push({ field, message: `cannot be analysed: ${message(error)}` });
    return undefined;
  }
  const unknown = [...new Set(used)].filter((name) => !declared.has(name));
  if (unknown.length > 0) {
    fields.push({
      field,
      message: `uses unknown variable${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; allowed: ${[...declared].join(', ')}`,
    });
  }
  if (field === 'body') {
    for (const name of required.filter((name) => !used.includes(name))) {
      fields.push({ field, message: `must use the variable ${name} ({{ ${name} }})` });
    }
  }
  return templates;
}

/**
 * Validates a template of a kind (an override, or the subject/body of a preview): parse errors,
 * unknown variables and a missing required variable are a 400 VALIDATION_ERROR naming `subject` or
 * `body`; so is a template that cannot render its sample values within the limits.
 */
export async function validateTemplate(catalog: TemplateCatalog, source: TemplateSource): Promise<void> {
  const declared = new Set(catalog.variables.map((variable) => variable.name));
  const required = catalog.variables.filter((v) => v.required).map((v) => v.name);
  const fields: FieldError[] = [];
  checkPart(plainEngine, 'subject', source.subject, declared, [], fields);
  checkPart(htmlEngine, 'body', source.body, declared, required, fields);
  if (fields.length > 0) throw validationError(fields, 'The e-mail template is not valid');
  await renderTemplate(catalog, source, sampleValues(catalog));
}

/** Refuses variable names the kind does not declare (`variables.<name>`). */
export function checkVariables(catalog: TemplateCatalog, variables: Variables): void {
  const declared = new Set(catalog.variables.map((variable) => variable.name));
  const unknown = Object.keys(variables).filter((name) => !declared.has(name));
  if (unknown.length > 0) {
    throw validationError(
      unknown.map((name) => ({
        field: `variables.${name}`,
        message: `is not a variable of the ${catalog.kind} template; allowed: ${[...declared].join(', ')}`,
      })),
    );
  }
}

async function renderPart(
  liquid: Liquid,
  field: 'subject' | 'body',
  source: string,
  values: Variables,
): Promise<string> {
  try {
    const output = String(await liquid.render(parseOnce(liquid, source), values));
    if (output.length > LIMITS.outputLimit) throw new Error(`output over ${LIMITS.outputLimit} characters`);
    return output;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw validationError(
      [{ field, message: `cannot be rendered within the limits: ${message(error)}` }],
      'The e-mail template cannot be rendered',
    );
  }
}

/**
 * Renders a template: the subject unescaped on one line, the HTML with escaped values, and the
 * text alternative derived from that HTML. A declared variable that is not given renders empty
 * (so `{% if inviter_email %}` and `| default:` work); an undeclared one is refused at validation.
 */
export async function renderTemplate(
  catalog: TemplateCatalog,
  source: TemplateSource,
  variables: Variables,
): Promise<RenderedEmail> {
  const values = {
    ...Object.fromEntries(catalog.variables.map((v) => [v.name, ''])),
    ...variables,
  };
  const subject = (await renderPart(plainEngine, 'subject', source.subject, values))
    .replace(/[\r\n]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
  const html = await renderPart(htmlEngine, 'body', source.body, values);
  return { subject, html, text: htmlToText(html) };
}

/** Renders a draft (`renderTemplate` with the draft's template as both catalog and source). */
export function renderDraft(draft: TemplateDraft): Promise<RenderedEmail> {
  return renderTemplate(draft.template, draft.template, draft.values);
}

// Headings and table cells keep their case and layout: e-mails are short and mostly paragraphs.
const TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  // Its walk over the document is recursive: a hostile template nesting tags thousands deep would
  // overflow the stack. No real e-mail nests 64 elements deep.
  limits: { maxDepth: 64 },
  selectors: [
    // The hidden preheader is inbox preview text, not part of the message.
    { selector: 'div[data-preheader]', format: 'skip' },
    { selector: 'img', format: 'skip' },
    {
      selector: 'a',
      options: { linkBrackets: ['(', ')'], hideLinkHrefIfSameAsText: true, ignoreHref: false },
    },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'block' },
    { selector: 'tr', format: 'block' },
    { selector: 'td', format: 'inline' },
    { selector: 'th', format: 'inline' },
  ],
};

/** Compiled once: `convert` compiles its options (selectors and all) on every call, most of its cost. */
const toText = compile(TEXT_OPTIONS);

/**
 * The plain-text alternative of rendered HTML (html-to-text): `head`, `style`, `script`, images
 * and the hidden preheader dropped, links kept as "text (url)", blocks as line breaks, entities
 * decoded. Its parser is linear, which matters since the HTML may come from a hostile template.
 */
export function htmlToText(html: string): string {
  return toText(html)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
