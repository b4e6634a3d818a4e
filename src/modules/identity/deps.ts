/** What the identity module's route plugins receive (built in app.ts); imports no feature. */
import type { ActorDirectory } from '../../kernel/auth/directory.ts';
import type { ModuleDeps } from '../../kernel/module.ts';

export interface IdentityDeps extends ModuleDeps {
  /** The actor directory the auth plugin records callers in: a sign-in records its person there too. */
  directory: ActorDirectory;
}
