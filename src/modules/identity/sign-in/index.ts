/** The sign-in feature's public surface: its routes, and the sign-out button other pages may show. */

export { signOutForm } from './sign-in.page.ts';
export { signInRoutes } from './sign-in.routes.ts';
