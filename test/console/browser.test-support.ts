import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium (never a downloaded browser). */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * Launches headless Chromium for the console tests, with a fresh profile (a temporary user-data-dir that
 * playwright removes on close) and no background traffic.
 *
 * @example
 * ```ts
 * const browser = await launchChromium()
 * await browser.close()
 * ```
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['BOTSHELF_CHROMIUM'] ?? CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}
