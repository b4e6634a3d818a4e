/** Who a verified bearer token speaks for: the subject and its e-mail (contract 2). */
export interface Identity {
  userId: string;
  email: string;
}
