/**
 * Debian's Chromium driven by playwright-core, for tests of what a person sees. Never a downloaded
 * browser. Where /usr/bin/chromium is missing, `browserOrSkip` skips the test with the command that
 * installs it, unless REQUIRE_BROWSER=1 (set by .ci/run), where a missing browser fails.
 */
import { existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Flags for a sandbox without network: the background services of Chromium would otherwise try to
 * reach Google at every start. `hostMap` maps made-up host names to loopback, so a page can be
 * opened at an address a browser does not treat as a secure context (any name but localhost).
 */
export async function launchBrowser(hostMap: Record<string, string> = {}): Promise<Browser> {
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
