import { existsSync } from 'node:fs'
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
  const executablePath = process.env['BOTSHELF_CHROMIUM'] ?? CHROMIUM_PATH
  if (!existsSync(executablePath)) {
    throw new Error(`The console's browser tests need Debian's Chromium at ${executablePath}: "apt-get install chromium" (npm test's pretest installs it when run as root), or set BOTSHELF_CHROMIUM to a Chromium binary`)
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}

/**
 * The visible form controls and buttons of a page that have no accessible name (no `<label>`, `aria-label`,
 * `aria-labelledby`, or text for a button), described for the assertion message.
 *
 * @example
 * ```ts
 * expect(await unnamedControls(page)).toEqual([])
 * ```
 */
export async function unnamedControls(page: import('playwright-core').Page): Promise<string[]> {
  return page.evaluate(() => {
    const unnamed: string[] = []
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('input, select, textarea, button'))) {
      if (element.hidden || (element as HTMLInputElement).type === 'hidden' || element.offsetParent === null) continue
      const labels = (element as HTMLInputElement).labels
      const named =
        (labels !== null && labels !== undefined && labels.length > 0 && Array.from(labels).some((label) => label.textContent!.trim() !== '')) ||
        (element.getAttribute('aria-label') ?? '').trim() !== '' ||
        element.hasAttribute('aria-labelledby') ||
        (element.tagName === 'BUTTON' && element.textContent!.trim() !== '')
      if (!named) unnamed.push(element.outerHTML.slice(0, 120))
    }
    return unnamed
  })
}
