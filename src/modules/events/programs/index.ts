/**
 * The programs feature's public surface: its routes, the program as other features read it, the port
 * a program's update asks of its sign-ups, and its table for the joins of certifications.
 */
export { findProgram, findProgramInAnyState } from './programs.repository.ts';
export { programRoutes } from './programs.routes.ts';
export { PROGRAM_EXAMPLE } from './programs.schemas.ts';
export { type ProgramSignUps, requireReadableProgram } from './programs.service.ts';
export { type ProgramRow, programs } from './programs.table.ts';
