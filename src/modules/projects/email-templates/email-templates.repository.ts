/** SQL of e-mail template overrides (one row per project and kind; no row: the default applies). */
import { overrideStoreIn } from '../../../kernel/mail-templates/overrides.service.ts';

export const overrideStore = overrideStoreIn('email_templates', 'project_id');
