/**
 * Server-rendered HTML for the pages people open (docs/reference/pages.md): a tagged template that escapes
 * every interpolated value, so a holder's name or a revocation reason can never become markup.
 * Only `Html` values (what `html` itself returns) are inserted as they are.
 */

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

type Value = Html | string | number | null | undefined | false | Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${name}</p>\``: the literal parts as written, every value escaped (arrays joined). */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0] ?? '';
  for (let index = 0; index < values.length; index += 1) {
    out += render(values[index]) + (strings[index + 1] ?? '');
  }
  return new Html(out);
}

/**
 * A script's strings as `data-msg-*` attributes (`tooLarge` → `data-msg-too-large`, read back as
 * `dataset.msgTooLarge`), so a page's script speaks the page's language without text of its own.
 */
export function dataMessages(messages: Record<string, string>): Html {
  return html`${Object.entries(messages).map(
    ([key, text]) => html` data-msg-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${text}"`,
  )}`;
}
