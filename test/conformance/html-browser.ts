// Headless Chromium for the HTML report tests: the system's browser, no network, no extras.
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.IDEA_CHROMIUM || '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
