/**
 * Server-side paging: a list operation's page with its `pagination`, and the navigation between
 * pages (the page and its neighbours come from the service; the console never holds the whole list).
 */
import { unwrap } from './api.ts';
import { useI18n } from './i18n.tsx';

export interface PageInfo {
  page: number;
  limit: number;
  total: number;
  has_next: boolean;
  has_prev: boolean;
}

/** The `data` of a list answer and its `pagination` (errors as `unwrap`'s). */
export async function unwrapPage<T>(
  pending: Promise<{
    data?: { data: T; pagination: PageInfo } | undefined;
    error?: unknown;
    response: Response;
  }>,
): Promise<{ items: T; pagination: PageInfo }> {
  const answer = await pending;
  const items = await unwrap(Promise.resolve(answer));
  return { items, pagination: (answer.data as { pagination: PageInfo }).pagination };
}

export function Paging({ info, onPage }: { info: PageInfo; onPage: (page: number) => void }) {
  const { t } = useI18n();
  const pages = Math.max(1, Math.ceil(info.total / info.limit));
  return (
    <nav class="paging" aria-label={t('paging')}>
      <button
        type="button"
        class="secondary small"
        disabled={!info.has_prev}
        onClick={() => onPage(info.page - 1)}
      >
        {t('previous')}
      </button>
      <span>{t('page', { page: info.page, pages, total: info.total })}</span>
      <button
        type="button"
        class="secondary small"
        disabled={!info.has_next}
        onClick={() => onPage(info.page + 1)}
      >
        {t('next')}
      </button>
    </nav>
  );
}
