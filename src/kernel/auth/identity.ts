/** Who a verified bearer token speaks for: the subject, its e-mail and, when given, its name (contract 2, 9). */
export interface Identity {
  userId: string;
  email: string;
  /** The token's `name` claim (or `subject.name`), cleaned; absent when the token carries none. */
  name?: string;
}
