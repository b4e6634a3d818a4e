/** The participants feature's public surface: its routes, and a program's sign-ups (the programs' port, wired in the module's index.ts). */
export { participantRoutes } from './participants.routes.ts';
export { programSignUps } from './participants.service.ts';
