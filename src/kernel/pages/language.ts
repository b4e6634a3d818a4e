/**
 * The language of a page (docs/reference/pages.md): the best match of `Accept-Language` among the languages
 * the pages are written in, `en` when nothing matches. A bare `pt` (or `pt-PT`) gets `pt-BR`, and
 * any Spanish (`es-AR`, …) gets `es`: the closest page is better than English.
 */
export const LANGUAGES = ['en', 'pt-BR', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

function match(tag: string): Language | undefined {
  const lower = tag.toLowerCase();
  if (lower === '*') return 'en';
  const primary = lower.split('-')[0];
  if (primary === 'en') return 'en';
  if (primary === 'pt') return 'pt-BR';
  if (primary === 'es') return 'es';
  return undefined;
}

export function pickLanguage(acceptLanguage: string | undefined): Language {
  if (acceptLanguage === undefined || acceptLanguage.length > 1000) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params
        .map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1])
        .find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((entry) => entry.tag !== '' && Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const entry of ranked) {
    const language = match(entry.tag);
    if (language !== undefined) return language;
  }
  return 'en';
}

/** Whether the client asks for a page rather than JSON: `text/html` ranked above `application/json`. */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined || accept.length > 2000) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const q = Number(params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean) ?? 1);
    if (!Number.isFinite(q)) continue;
    if (type.trim() === 'text/html') html = Math.max(html, q);
    if (type.trim() === 'application/json') json = Math.max(json, q);
  }
  return html > 0 && html > json;
}
