/** Shared steps of the mail tests (not a test file itself): finding a mail at the SMTP server, and its links. */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ParsedMail, SmtpSink } from '../../../../test/smtp-sink.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { outboxOf } from '../../mail/mail.fixtures.ts';

/**
 * The first mail to `to` whose subject matches, waiting for it (the sending runs in the background).
 * A mail that never came is explained by what the app's outbox (`db`) holds for `to`.
 */
export async function mailTo(
  sink: SmtpSink,
  to: string,
  subject: RegExp,
  { timeoutMs = 20_000, db }: { timeoutMs?: number | undefined; db: Database },
): Promise<ParsedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = sink.mails.find(
      (mail) =>
        mail.to !== undefined &&
        [mail.to].flat().some((a) => a.text.toLowerCase() === to.toLowerCase()) &&
        subject.test(mail.subject ?? ''),
    );
    if (found !== undefined) return found;
    if (Date.now() > deadline) {
      const outbox = await outboxOf(db, to);
      assert.fail(
        `no mail to ${to} matching ${subject}; got ${sink.mails.map((m) => `${m.subject}`).join(' | ')}; the outbox holds for them: ${outbox}`,
      );
    }
    await sleep(50);
  }
}

/** The path of the first link in the HTML that starts with `base` + `prefix`. */
export function linkIn(html: string, base: string, prefix: string): string {
  const escaped = `${base}${prefix}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`href="(${escaped}[^"]*)"`).exec(html);
  assert.ok(match?.[1] !== undefined, `a link to ${prefix}`);
  return match[1].replaceAll('&amp;', '&').slice(base.length);
}
