// How every Node script here starts Debian's Chromium (e2e tests, perf figures, the day's
// profile): headless, and with no network of its own (without these flags it keeps trying to
// reach Google's hosts, which this machine's closed network refuses).
import { chromium } from 'playwright-core';

/** The Chromium binary: Debian's, unless CHROMIUM_PATH names another. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Launches Chromium with the project's flags plus `extra`; `headless` unless told otherwise. */
export function launchChromium({ extra = [], headless = true } = {}) {
  return chromium.launch({
    executablePath: chromiumPath,
    headless,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', ...extra],
  });
}
