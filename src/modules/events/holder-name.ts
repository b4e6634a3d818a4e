/**
 * The holder's name as every public artefact shows it: the badge page and its JSON, the
 * verification page and its JSON, printed badges, certificate PDFs and credentials. A holder's
 * name is the `name` claim of their token when they gave one, else their e-mail (docs/features.md,
 * "Attendance and certificates"); anything anyone can open, print or be shown carries the e-mail
 * masked, never in clear. Owners and admins, and the holder on their own routes, still read it.
 *
 * The mask keeps the first character of the local part and of the domain, and the top-level
 * domain: `ana.souza@example.com` → `a•••@e•••.com`. Enough for a holder to recognise their own
 * address, too little to write to it; the bullets are always three, so the mask does not give away
 * the address's length either.
 *
 * A name that is itself an address counts as no name: certificates store the name they were
 * issued with, and those issued without a name claim stored the e-mail there; an identity
 * provider may also put the address in `name`. Masking when read covers both, with no migration.
 */

const HIDDEN = '•••';
/** An address as the actor directory holds them: something, an at sign, something; no spaces. */
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+$/;
/** An address inside a name ("Ana <ana@example.com>"): stops at spaces, brackets and punctuation. */
const ADDRESS_IN_TEXT = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+/g;

/** The first character (a whole code point, whatever its script). */
const firstOf = (text: string) => Array.from(text)[0] ?? '';

/** `ana.souza@example.com` → `a•••@e•••.com`; `root@localhost` → `r•••@l•••`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return `${firstOf(email)}${HIDDEN}`;
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const topLevel = dot > 0 ? domain.slice(dot) : '';
  return `${firstOf(email.slice(0, at))}${HIDDEN}@${firstOf(domain)}${HIDDEN}${topLevel}`;
}

/**
 * The name the holder gave, or null when there is none: absent, blank, or an e-mail address. An
 * address inside a name is masked where it stands.
 */
export function realName(name: string | null | undefined): string | null {
  const trimmed = name?.trim() ?? '';
  if (trimmed === '' || EMAIL_ADDRESS.test(trimmed)) return null;
  return (name as string).replace(ADDRESS_IN_TEXT, maskEmail);
}

/** What public artefacts call the holder: their name, else their e-mail masked. */
export function publicHolderName(name: string | null | undefined, email: string): string {
  return realName(name) ?? maskEmail(email);
}
