/**
 * The badges feature's public surface: its routes, the codes of badge QR codes, the badge emission
 * rules as the ports of the features below (publishing, members, registration transitions, wired in
 * the module's index.ts), the emission lookups of the public pages, and its table for the joins of
 * check-ins.
 */
export { type BadgeCodes, createBadgeCodes } from './badge-codes.ts';
export {
  type ConfirmationFacts,
  type EmissionView,
  findConfirmationFacts,
  findEditionNames,
  findEmission,
  findEmissionOfRegistration,
  findEmissionsOfRegistrations,
  listActiveBadgesOfUser,
  type UserBadgeView,
} from './badge-emissions.repository.ts';
export { memberStaffBadges, participantBadges, publishStaffBadges } from './badges.emission.ts';
export { badgeRoutes } from './badges.routes.ts';
export { badgeEmissions } from './badges.table.ts';
