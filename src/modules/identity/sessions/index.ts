/** The sessions feature's public surface: starting sessions, the port the auth plugin resolves cookies with, the sign-out script. */
export { sessionRoutes } from './sessions.routes.ts';
export {
  createSessionPort,
  findSession,
  SIGN_OUT_SCRIPT,
  type StartedSession,
  sessionCookie,
  startSession,
} from './sessions.service.ts';
