/** SQL of the events' mail template overrides (one row per event and kind; no row: the default applies). */
import { overrideStoreIn } from '../../../kernel/mail-templates/overrides.service.ts';

export const overrideStore = overrideStoreIn('event_email_templates', 'event_id');
