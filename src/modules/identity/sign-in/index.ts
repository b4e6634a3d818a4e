/** The sign-in feature's public surface: its routes, and the sign-out button other pages may show. */
export { signInRoutes } from './sign-in.routes.ts';
export { signOutForm } from './sign-in.page.ts';
