/** The public pages' surface: their routes. Nothing imports the pages: they sit above every other feature. */
export { pageRoutes } from './pages.routes.ts';
