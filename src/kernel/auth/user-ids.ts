/**
 * User ids the service derives itself (docs/reference/sign-in.md, "User ids"): the development
 * token CLI and the development sign-in page give the same id for the same e-mail, and a browser
 * signed in through OpenID Connect gets a stable UUID even when the provider's `sub` is not one.
 */
import { createHash } from 'node:crypto';
import { UUID_PATTERN } from '../db/ids.ts';

/** 32 hex digits as a UUID whose version nibble is `version` and whose variant is RFC 9562's. */
function uuidFromHex(hex: string, version: string): string {
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${version}${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A stable user id per e-mail (case-insensitive), so the same person gets the same `sub` every time. */
export function userIdForEmail(email: string): string {
  // Version 7 in shape, as it always was: ids minted before this file existed keep their value.
  return uuidFromHex(createHash('sha256').update(email.toLowerCase()).digest('hex'), '7');
}

/**
 * The user id of an OpenID Connect subject: its `sub` itself when that is a UUID (the identity
 * service that signs our bearer tokens uses the same ids), else a version 8 UUID from a SHA-256 of
 * the issuer and the subject, so that two issuers' equal `sub`s never meet in one user.
 */
export function userIdForSubject(issuer: string, sub: string): string {
  if (UUID_PATTERN.test(sub)) return sub.toLowerCase();
  return uuidFromHex(createHash('sha256').update(`${issuer}\n${sub}`).digest('hex'), '8');
}
