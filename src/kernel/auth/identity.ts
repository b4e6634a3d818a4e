import type { Language } from '../pages/language.ts';

/** Who a verified bearer token speaks for: the subject, its e-mail and, when given, its name (docs/reference/auth.md and docs/reference/attendance.md). */
export interface Identity {
  userId: string;
  email: string;
  /** The token's `name` claim (or `subject.name`), cleaned; absent when the token carries none. */
  name?: string;
  /**
   * The language of the request the caller made (its `Accept-Language` among `en`, `pt-BR`, `es`):
   * the mails that request causes are written in it (docs/mail.md). Absent outside a request.
   */
  language?: Language;
}
