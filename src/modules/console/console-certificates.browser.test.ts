/**
 * A certificate run from the console in Chromium (docs/console.md, "Certificates"), over plain HTTP
 * at a made-up host, signed in through the test OpenID provider as an admin of the event. On an
 * edition under way with two people checked in: a template is created, a signature requested (and
 * shown waiting), certificates issued with the progress bar reaching 100 %, the issued ones found by
 * search; the holder's certificate verifies on its `/verify` page, and after a revocation with a
 * reason from the console that page says it is revoked, and why.
 * A staff member is told the screen is for owners and admins, and the API is asked nothing of it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectOk } from '../../../test/assertions.ts';
import { readPdf } from '../../../test/pdf.ts';
import { certificateFixtures } from '../events/certificates/certificates.fixtures.ts';
import { until } from '../events/registrations/checkout.fixtures.ts';
import { SAM, useConsoleInBrowser, useConsoleTeam } from './console.browser.fixtures.ts';

describe('the console’s certificates in a browser', () => {
  const { openConsole, signIn, checkScreen, undocumentedOf, visit, ...bench } = useConsoleInBrowser();
  const { team, joinAs } = useConsoleTeam(
    bench,
    [{ id: 'olga-admin', email: 'olga@example.com', name: 'Olga Admin' }, SAM],
    signIn,
  );
  const f = certificateFixtures(team);

  it('creates a template, requests a signature, issues with progress, finds, verifies and revokes', async (context) => {
    const { t, owner } = team();
    const base = await f.setupAttendance();
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana Souza');
    const bo = await f.attendee(base.edition.id, base.general.id, 'Bo Lin');
    for (const person of [ana, bo]) await f.checkIn(base.edition.id, person);

    const opened = await openConsole(context);
    if (opened === undefined) return;
    const { page, requests, problems } = opened;
    await joinAs(page, 'olga-admin', 'admin', base.event.id);

    // From the edition's screen to its certificates.
    await visit(page, `/console/events/${base.event.id}/editions/${base.edition.id}`);
    await page.getByRole('link', { name: 'Certificates' }).click();
    await page.getByRole('heading', { level: 1, name: 'Certificates' }).waitFor();

    // 1. A template.
    const templates = page.getByRole('region', { name: 'Templates' });
    await templates.getByText('No certificate templates yet.').waitFor();
    await templates.getByText('New template').click();
    await templates.getByLabel('Certifies').selectOption('edition_attendance');
    await templates.getByLabel('Name on the certificate').fill('Certificate of attendance');
    await templates.getByLabel('Description (optional)').fill('Two days of talks.');
    await templates.getByRole('button', { name: 'Create template' }).click();
    await templates.getByText('Template created.').waitFor();
    await templates
      .locator('#template-list')
      .getByText('Certificate of attendance', { exact: true })
      .waitFor();

    // 1b. Its design, with the PDF preview following an unsaved change, then saved.
    await templates.getByText('Design “Certificate of attendance”').click();
    const frame = templates.locator('iframe[data-preview]');
    await frame.waitFor();
    const firstPreview = await frame.getAttribute('src');
    assert.match(firstPreview ?? '', /^blob:/);
    // The PDF the frame shows next, as the service drew it: the unsaved title, the sample holder.
    const drawn = page.waitForResponse(
      (answer) =>
        answer.url().endsWith('/preview') && answer.request().postData()?.includes('presence') === true,
    );
    await templates.getByLabel('Title (optional)', { exact: true }).fill('Certificate of presence');
    const answer = await drawn;
    assert.equal(answer.headers()['content-type'], 'application/pdf');
    await until(
      () => frame.getAttribute('src'),
      (src) => src !== null && src !== firstPreview,
      'the new preview in the frame',
    );
    // What the console asked to draw, drawn again here and read back (the browser keeps no copy of
    // a no-store answer's body to hand over).
    const asked = answer.request().postData() ?? '';
    assert.equal(
      (JSON.parse(asked) as { design_data: { title: string } }).design_data.title,
      'Certificate of presence',
    );
    const again = await t.app.inject({
      method: 'POST',
      url: new URL(answer.url()).pathname,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      payload: asked,
    });
    assert.equal(Number(answer.headers()['content-length']), again.rawPayload.length, 'the same drawing');
    const previewText = (await readPdf(again.rawPayload)).texts[0]!.join(' ');
    for (const expected of ['Certificate of presence', 'Ana Souza', 'PREVIEW']) {
      assert.ok(previewText.replace(/\s+/g, ' ').includes(expected), `${expected} in the preview`);
    }
    await checkScreen(page, 'certificate-design');
    await templates.getByRole('button', { name: 'Save design' }).click();
    await templates.getByText('Design saved.', { exact: false }).waitFor();
    const template = (
      await t.get<Array<{ design_data: Record<string, unknown> }>>(
        `/editions/${base.edition.id}/certifications/templates`,
      )
    ).body.data[0];
    assert.equal(template?.design_data.title, 'Certificate of presence');

    // 2. A signature, requested and shown waiting.
    const signatures = page.getByRole('region', { name: 'Signatures' });
    await signatures.getByText('Request signature').first().click();
    await signatures.getByLabel('Signatory’s name').fill('Rita Reis');
    await signatures.getByLabel('Signatory’s e-mail').fill('rita@example.com');
    await signatures.getByLabel('Title (optional)').fill('Programme chair');
    await signatures.getByRole('button', { name: 'Request signature' }).click();
    await signatures.getByText('Signature requested: the mail is on its way.').waitFor();
    const rita = signatures.locator('#signature-list > li').filter({ hasText: 'Rita Reis' });
    await rita.getByText('Waiting').waitFor();
    // Its mail, sent again: a copy of the one in the event's mail log.
    await rita.getByRole('button', { name: 'Resend the mail to Rita Reis' }).click();
    await signatures.getByText('The request’s mail was sent again.').waitFor();
    const mails = expectOk(
      await t.get<Array<{ id: string; resent_from: string | null }>>(
        `/events/${base.event.id}/emails?kind=signature_request&to=rita@example.com`,
        { token: owner.token },
      ),
    );
    assert.deepEqual(
      mails.map((mail) => mail.resent_from),
      [mails[1]?.id, null],
      'the request’s mail, then its copy',
    );

    // 3. Issued, the bar filling to 100 %.
    const issue = page.getByRole('region', { name: 'Issue' });
    await issue.getByRole('button', { name: 'Issue certificates' }).click();
    const progress = issue.locator('.issue-progress[data-status="completed"]');
    await progress.waitFor({ timeout: 30_000 });
    assert.equal(await progress.getAttribute('data-percent'), '100');
    assert.equal(await issue.getByLabel('Issuing certificates').getAttribute('value'), '100');
    assert.match(await progress.innerText(), /2 of 2 · issued 2, skipped 0, errors 0[\s\S]*Done\./);
    await checkScreen(page, 'certificates');

    // 4. Found by search.
    const issued = page.getByRole('region', { name: 'Issued certificates' });
    const rows = issued.locator('ul.certificates > li');
    await rows.filter({ hasText: 'Bo Lin' }).waitFor();
    assert.equal(await rows.count(), 2);
    await issued.getByLabel('Search (optional)').fill('souza');
    await issued.getByRole('button', { name: 'Search' }).click();
    // Waited for by locators: a string predicate is evaluated by `eval`, which the console's CSP refuses.
    await rows.filter({ hasText: 'Bo Lin' }).waitFor({ state: 'detached' });
    await rows.filter({ hasText: 'Ana Souza' }).waitFor();
    assert.equal(await rows.count(), 1);
    const anaRow = rows.filter({ hasText: 'Ana Souza' });
    assert.match(await anaRow.innerText(), /Ana Souza\s+Valid[\s\S]*Certificate of attendance/);

    // 5. The verification page says valid, then revoked with the reason given here.
    const verifyUrl =
      (await anaRow.getByRole('link', { name: 'Verification page' }).getAttribute('href')) ?? '';
    assert.match(verifyUrl, /\/verify\/[A-Za-z0-9_-]+$/);
    const verify = await page.context().newPage();
    await verify.goto(verifyUrl);
    await verify.getByText('Valid certificate').waitFor();
    assert.ok((await verify.locator('main').innerText()).includes('Ana Souza'));

    await anaRow.getByRole('button', { name: 'Revoke Ana Souza’s certificate' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Revoke Ana Souza’s certificate “Certificate of attendance”?').waitFor();
    await dialog.getByLabel('Reason').fill('Left on the first morning');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await issued.getByText('Certificate revoked.').waitFor();
    await anaRow.getByText('Revoked', { exact: true }).waitFor();
    assert.match(await anaRow.innerText(), /revoked .*: Left on the first morning/);
    await checkScreen(page, 'certificates-revoked');

    await verify.reload();
    await verify.getByText('Revoked certificate').waitFor();
    assert.ok((await verify.locator('main').innerText()).includes('Left on the first morning'));
    await verify.close();

    // The API holds what the screen showed.
    const listed = await t.get<Array<{ user_id: string; status: string; reason: string | null }>>(
      `/editions/${base.edition.id}/certificates`,
      { token: owner.token },
    );
    assert.deepEqual(
      listed.body.data
        .map(({ user_id, status, reason }) => ({ user_id, status, reason }))
        .sort((a, b) => a.user_id.localeCompare(b.user_id)),
      [
        { user_id: ana.id, status: 'revoked', reason: 'Left on the first morning' },
        { user_id: bo.id, status: 'valid', reason: null },
      ].sort((a, b) => a.user_id.localeCompare(b.user_id)),
    );

    // Staff: told whose screen it is, and no request for templates or certificates.
    const staff = await openConsole(context);
    if (staff === undefined) return;
    await joinAs(staff.page, 'sam-staff', 'staff', base.event.id);
    await visit(staff.page, `/console/events/${base.event.id}/editions/${base.edition.id}`);
    await staff.page.getByRole('heading', { level: 1, name: base.edition.name }).waitFor();
    assert.equal(await staff.page.getByRole('link', { name: 'Certificates' }).count(), 0);
    await visit(staff.page, `/console/events/${base.event.id}/editions/${base.edition.id}/certificates`);
    await staff.page.getByText('Certificates are managed by the event’s owners and admins.').waitFor();
    assert.ok(
      !staff.requests.some((request) => /certific/.test(request) && !request.includes(' /console/')),
      'no request for templates or certificates',
    );

    assert.deepEqual(problems, [], 'no failed request, console error or CSP refusal');
    assert.deepEqual(staff.problems, []);
    assert.deepEqual(undocumentedOf([...requests, ...staff.requests]), []);
  });
});
