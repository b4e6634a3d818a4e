/**
 * `text` as a LIKE pattern matching it anywhere, its own `%`, `_` and `\` taken literally (the
 * default escape character of LIKE is the backslash, in PostgreSQL as in PGlite).
 */
export const likeContaining = (text: string): string => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
