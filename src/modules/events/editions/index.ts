/**
 * The editions feature's public surface: its routes, its guards (built on the event's), the port
 * publishing asks of badges, the edition as other features read it, and its table and public-edition
 * condition for the joins of the features above.
 */
export { type EditionAccess, requireEditionRole, requireReadableEdition } from './editions.access.ts';
export { findEditionWithAccess, isPublicEdition, listCurrentEditionIds } from './editions.repository.ts';
export { editionRoutes } from './editions.routes.ts';
export { EDITION_EXAMPLE } from './editions.schemas.ts';
export type { PublishStaffBadges } from './editions.service.ts';
export { type EditionRow, editions } from './editions.table.ts';
