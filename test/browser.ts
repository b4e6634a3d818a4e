/**
 * Debian's Chromium driven by playwright-core, for tests of what a person sees. Never a downloaded
 * browser. Where /usr/bin/chromium is missing, `browserOrSkip` skips the test with the command that
 * installs it, unless REQUIRE_BROWSER=1 (set by .ci/run), where a missing browser fails.
 */
import { existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Flags for a sandbox without network: the background services of Chromium would otherwise try to
 * reach Google at every start. `hostMap` maps made-up host names to loopback, so a page can be
 * opened at an address a browser does not treat as a secure context (any name but localhost).
 */
export async function launchBrowser(
  hostMap: Record<string, string> = {},
  extraArgs: string[] = [],
): Promise<Browser> {
  const rules = Object.entries(hostMap).map(([host, address]) => `MAP ${host} ${address}`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(rules.length > 0 ? [`--host-resolver-rules=${rules.join(',')}`] : []),
      ...extraArgs,
    ],
  });
}

/** The browser, or undefined after marking the test skipped (see the header). */
export async function browserOrSkip(
  context: TestContext,
  hostMap: Record<string, string> = {},
): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    if (process.env.REQUIRE_BROWSER === '1') throw new Error(`${CHROMIUM} is missing`);
    context.skip(`no ${CHROMIUM}: install it with apt-get install -y chromium`);
    return undefined;
  }
  return launchBrowser(hostMap);
}

/**
 * One browser for a whole test file, launched by the first test that asks (and skipped, as
 * `browserOrSkip` says, where Chromium is missing); `close` in `after`. `extraArgs` are read at
 * that launch, so a test can name a file it has just written (a fake camera's video).
 */
export function sharedBrowser(hostMap: Record<string, string> = {}, extraArgs: () => string[] = () => []) {
  let launched: Promise<Browser | undefined> | undefined;
  return {
    async get(context: TestContext): Promise<Browser | undefined> {
      if (!existsSync(CHROMIUM)) return browserOrSkip(context, hostMap);
      launched ??= launchBrowser(hostMap, extraArgs());
      return launched;
    },
    async close(): Promise<void> {
      await (await launched)?.close();
    },
  };
}

/** The serious and critical findings of axe-core on the page as it is now (WCAG 2.x A and AA). */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const { AxeBuilder } = await import('@axe-core/playwright');
  // Legacy mode runs axe in the page itself. The default also opens a blank page to merge the
  // findings of cross-origin frames, which none of these pages has, at about half a second each.
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .setLegacyMode(true)
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
}

/** Phone and desktop widths of the committed screenshots (docs/screenshots). */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/**
 * With `SCREENSHOTS=<dir>` in the environment, saves the page at phone and desktop width as
 * `<dir>/<name>-phone.png` and `<name>-desktop.png` (full page), then restores its viewport.
 * Without it, does nothing: the tests run the same either way.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOTS;
  if (dir === undefined || dir === '') return;
  const before = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${dir}/${name}-${label}.png`, fullPage: true });
  }
  if (before !== null) await page.setViewportSize(before);
}
