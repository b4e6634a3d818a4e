/**
 * Overrides of built-in e-mail templates, for any owner of templates (a project's account mails,
 * an event's mails to people). The effective template of a kind is the owner's override when there
 * is one, otherwise the built-in default (in the reader's language where the family has several),
 * tagged with `source`. Every operation checks the caller's role first; an unknown kind is 404 after
 * it, so outsiders learn nothing. Overrides are validated before they are stored (liquid.ts).
 */

import { sql } from 'drizzle-orm';
import type { Identity } from '../auth/identity.ts';
import type { Database, Executor } from '../db/client.ts';
import type { Window } from '../db/paging.ts';
import { queryRows } from '../db/raw.ts';
import { notFound } from '../http/errors.ts';
import type { Page } from '../http/respond.ts';
import type { Language } from '../pages/language.ts';
import {
  checkVariables,
  type RenderedEmail,
  renderDraft,
  renderTemplate,
  sampleValues,
  type TemplateCatalog,
  type TemplateDraft,
  type TemplateSource,
  type Variables,
  validateTemplate,
} from './liquid.ts';

export interface OverrideRow {
  kind: string;
  subject: string;
  body: string;
}

/** Drafts mails of a family (`TemplateOverrides.drafter`), each owner's override of a kind read once. */
export interface Drafter<K extends string> {
  draft(ownerId: string, kind: K, language: Language, variables: Variables): Promise<TemplateDraft>;
}

/** The SQL of one family's overrides (one row per owner and kind), owned by the family's feature. */
export interface OverrideStore {
  find(db: Executor, ownerId: string, kind: string): Promise<OverrideRow | undefined>;
  findAll(db: Executor, ownerId: string): Promise<OverrideRow[]>;
  upsert(db: Executor, row: OverrideRow & { ownerId: string; updatedBy: string }): Promise<OverrideRow>;
  remove(db: Executor, ownerId: string, kind: string): Promise<void>;
}

/**
 * The store of a family whose overrides live in `table` (columns `<ownerColumn>`, `kind`, `subject`,
 * `body`, `updated_by`, `updated_at`; primary key owner and kind): the same four statements for
 * every family, so they are written once.
 */
export function overrideStoreIn(table: string, ownerColumn: string): OverrideStore {
  const from = sql.identifier(table);
  const owner = sql.identifier(ownerColumn);
  const columns = sql`kind, subject, body`;
  return {
    findAll: (db, ownerId) =>
      queryRows<OverrideRow>(
        db,
        sql`select ${columns} from ${from} where ${owner} = ${ownerId} order by kind`,
      ),
    async find(db, ownerId, kind) {
      const [row] = await queryRows<OverrideRow>(
        db,
        sql`select ${columns} from ${from} where ${owner} = ${ownerId} and kind = ${kind}`,
      );
      return row;
    },
    async upsert(db, row) {
      const [stored] = await queryRows<OverrideRow>(
        db,
        sql`insert into ${from} (${owner}, kind, subject, body, updated_by)
            values (${row.ownerId}, ${row.kind}, ${row.subject}, ${row.body}, ${row.updatedBy})
            on conflict (${owner}, kind) do update
            set subject = excluded.subject, body = excluded.body, updated_by = excluded.updated_by,
                updated_at = now()
            returning ${columns}`,
      );
      if (stored === undefined) throw new Error('upsert returned no row');
      return stored;
    },
    async remove(db, ownerId, kind) {
      await db.execute(sql`delete from ${from} where ${owner} = ${ownerId} and kind = ${kind}`);
    },
  };
}

export type DefaultTemplate = TemplateCatalog & TemplateSource;

export interface TemplateFamily<K extends string> {
  kinds: readonly K[];
  /** The built-in template of a kind in a language (a family written in one language ignores it). */
  defaultOf(kind: K, language: Language): DefaultTemplate;
  store: OverrideStore;
  /** Refuses a caller who may not manage the owner's templates (404 or 403, as the owner's rules say). */
  requireManager(db: Database, ownerId: string, actor: Identity): Promise<void>;
  /** Values every render of the family gets, whatever the caller gives (the events' `language`). */
  fixedValues?(language: Language): Variables;
}

export interface EffectiveTemplate {
  kind: string;
  subject: string;
  body: string;
  source: 'default' | 'override';
  variables: TemplateCatalog['variables'];
}

export interface PreviewRequest {
  subject?: string;
  body?: string;
  variables?: Variables;
}

export class TemplateOverrides<K extends string> {
  constructor(private readonly family: TemplateFamily<K>) {}

  isKind(kind: string): kind is K {
    return (this.family.kinds as readonly string[]).includes(kind);
  }

  private requireKind(kind: string): K {
    if (!this.isKind(kind)) throw notFound('E-mail template kind');
    return kind;
  }

  private effective(kind: K, language: Language, override: OverrideRow | undefined): EffectiveTemplate {
    const fallback = this.family.defaultOf(kind, language);
    return {
      kind,
      subject: override?.subject ?? fallback.subject,
      body: override?.body ?? fallback.body,
      source: override === undefined ? 'default' : 'override',
      variables: fallback.variables,
    };
  }

  /** The template a mail of `kind` is rendered with (no role check: for the senders). */
  async effectiveTemplate(db: Executor, ownerId: string, kind: K, language: Language) {
    return this.effective(kind, language, await this.family.store.find(db, ownerId, kind));
  }

  /**
   * The effective template of `kind` with `variables` (the sender's values) and the family's fixed
   * values: what renders the mail, in the mail thread (`renderDraft`).
   */
  draft(
    db: Executor,
    ownerId: string,
    kind: K,
    language: Language,
    variables: Variables,
  ): Promise<TemplateDraft> {
    return this.drafter(db).draft(ownerId, kind, language, variables);
  }

  /**
   * `draft` for many mails in a row (one claim of them): each owner's override of a kind is read
   * once and kept for the drafter's life, which a claim's few seconds are.
   */
  drafter(db: Executor): Drafter<K> {
    const overrides = new Map<string, Promise<OverrideRow | undefined>>();
    return {
      draft: async (ownerId, kind, language, variables) => {
        const key = `${ownerId} ${kind}`;
        let override = overrides.get(key);
        if (override === undefined) {
          override = this.family.store.find(db, ownerId, kind);
          overrides.set(key, override);
        }
        const template = this.effective(kind, language, await override);
        return { template, values: { ...variables, ...this.family.fixedValues?.(language) } };
      },
    };
  }

  /** Renders the effective template of `kind` with `variables`, here and now. */
  async render(
    db: Executor,
    ownerId: string,
    kind: K,
    language: Language,
    variables: Variables,
  ): Promise<RenderedEmail> {
    return renderDraft(await this.draft(db, ownerId, kind, language, variables));
  }

  async list(
    db: Database,
    ownerId: string,
    actor: Identity,
    window: Window,
    language: Language,
  ): Promise<Page<EffectiveTemplate>> {
    await this.family.requireManager(db, ownerId, actor);
    const overrides = new Map((await this.family.store.findAll(db, ownerId)).map((row) => [row.kind, row]));
    const all = this.family.kinds.map((kind) => this.effective(kind, language, overrides.get(kind)));
    return {
      items: all.slice(window.offset, window.offset + window.limit),
      total: all.length,
      page: window.page,
      limit: window.limit,
    };
  }

  async get(db: Database, ownerId: string, kind: string, actor: Identity, language: Language) {
    await this.family.requireManager(db, ownerId, actor);
    return this.effectiveTemplate(db, ownerId, this.requireKind(kind), language);
  }

  async put(
    db: Database,
    ownerId: string,
    kind: string,
    actor: Identity,
    source: TemplateSource,
    language: Language,
  ): Promise<EffectiveTemplate> {
    await this.family.requireManager(db, ownerId, actor);
    const known = this.requireKind(kind);
    await validateTemplate(this.family.defaultOf(known, language), source);
    const row = await this.family.store.upsert(db, {
      ownerId,
      kind: known,
      subject: source.subject,
      body: source.body,
      updatedBy: actor.userId,
    });
    return this.effective(known, language, row);
  }

  /** Removes the override (a no-op without one) and answers the now-effective default. */
  async remove(db: Database, ownerId: string, kind: string, actor: Identity, language: Language) {
    await this.family.requireManager(db, ownerId, actor);
    const known = this.requireKind(kind);
    await this.family.store.remove(db, ownerId, known);
    return this.effective(known, language, undefined);
  }

  async preview(
    db: Database,
    ownerId: string,
    kind: string,
    actor: Identity,
    request: PreviewRequest,
    language: Language,
  ): Promise<RenderedEmail> {
    await this.family.requireManager(db, ownerId, actor);
    const known = this.requireKind(kind);
    const catalog = this.family.defaultOf(known, language);
    const variables = request.variables ?? {};
    checkVariables(catalog, variables);
    const current =
      request.subject === undefined || request.body === undefined
        ? await this.effectiveTemplate(db, ownerId, known, language)
        : undefined;
    const source = {
      subject: request.subject ?? current?.subject ?? '',
      body: request.body ?? current?.body ?? '',
    };
    if (request.subject !== undefined || request.body !== undefined) await validateTemplate(catalog, source);
    return renderTemplate(catalog, source, {
      ...sampleValues(catalog),
      ...variables,
      ...this.family.fixedValues?.(language),
    });
  }
}
