// The web console in a real browser (Debian's Chromium driven by playwright-core) against a real `botshelf serve`:
// sign-in link, uploads with progress, preview, tags, search over an indexed document, tables (create, rows, filter,
// export), tokens, a viewer.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnServe, type ServeProcess } from '../helpers/cli.js'
import { launchChromium, unnamedControls } from './browser.test-support.js'

const shots = fileURLToPath(new URL('./screenshots/', import.meta.url))

describe('web console in Chromium against botshelf serve', () => {
  let dataDir: string
  let serve: ServeProcess
  let browser: Browser
  let admin: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  let viewerToken = ''
  let fileId = ''

  // Each main page is photographed, and checked for controls without an accessible name on the way.
  const shoot = async (target: Page, name: string) => {
    await target.screenshot({ path: join(shots, `${name}.png`), fullPage: true })
    expect(await unnamedControls(target), name).toEqual([])
  }
  const api = async (path: string, token: string, init: RequestInit = {}) => {
    const headers = { authorization: `Bearer ${token}`, 'x-bot-id': serve.botId, ...(init.body ? { 'content-type': 'application/json' } : {}) }
    return fetch(`${serve.url}${path}`, { ...init, headers })
  }

  beforeAll(async () => {
    // The console the server serves is the one built from these sources.
    const { buildConsole } = await import('../../server/scripts/build-console.mjs')
    await buildConsole()
    await mkdir(shots, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), 'botshelf-console-'))
    serve = await spawnServe(dataDir)
    browser = await launchChromium()
    admin = await browser.newContext({ viewport: { width: 1366, height: 800 } })
    page = await admin.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    // Refused calls (a 400 the tests provoke: a bad row, an over-long search query) are logged by the browser as failed loads:
    // expected. Anything else at error level (a CSP violation, a script error) is not.
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && pageErrors.push(message.text()))
  }, 150_000)

  afterAll(async () => {
    await browser?.close()
    serve?.child.kill('SIGTERM')
    await serve?.exited
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('serves the console with a strict CSP, and the printed one-time link signs in as workspace administrator', async () => {
    const link = /(http\S+\/console\/#sign-in=[A-Za-z0-9_-]+)/.exec(serve.stderr())?.[1]
    expect(link, serve.stderr()).toBeDefined()
    const response = await page.goto(link!)
    const headers = response!.headers()
    expect(headers['content-security-policy']).toContain("default-src 'self'")
    expect(headers['content-security-policy']).toContain("script-src 'self'")
    expect(headers['x-content-type-options']).toBe('nosniff')

    await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Tokens and bots' }).waitFor()
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('')
    expect(await page.locator('.topbar .role').textContent()).toBe('workspace administrator')
    await page.getByText('No files yet.').waitFor()
    // The accessible-name check catches a bare control (so its empty answers mean something).
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('input'), { id: 'probe' })))
    expect(await unnamedControls(page)).toEqual(['<input id="probe">'])
    await page.evaluate(() => document.getElementById('probe')!.remove())
    // The service searches files: the Search tab is shown.
    expect(await page.getByRole('link', { name: 'Search' }).count()).toBe(1)

    // The code works once: opening the same link again signs nobody in.
    const second = await browser.newContext()
    const again = await second.newPage()
    await again.goto(link!)
    await again.getByRole('alert').waitFor()
    expect(await again.getByRole('alert').textContent()).toContain('Unauthorized: This sign-in link was already used')
    await second.close()
  })

  it('uploads dropped files with a progress bar and lists them', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024)
    await page.evaluate(
      ({ big }) => {
        const transfer = new DataTransfer()
        transfer.items.add(new File(['hello from the console\n<b>not html</b>'], 'hello.txt', { type: 'text/plain' }))
        transfer.items.add(new File([big], 'big.bin', { type: 'application/octet-stream' }))
        document.querySelector('.dropzone')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
      },
      { big },
    )
    const bars = page.locator('.uploads progress')
    await expect.poll(() => bars.count()).toBe(2)
    await expect.poll(() => page.locator('.uploads .upload-done').count(), { timeout: 20_000 }).toBe(2)
    expect(await bars.evaluateAll((all) => all.map((bar) => (bar as HTMLProgressElement).value))).toEqual([100, 100])
    await page.getByRole('link', { name: 'hello.txt' }).waitFor()
    await page.getByRole('link', { name: 'big.bin' }).waitFor()
    expect(await page.locator('table.grid tbody tr').count()).toBe(2)
    await shoot(page, 'files-list')

    // Key search over the list.
    await page.getByLabel('Search by key').fill('hello')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(() => page.locator('table.grid tbody tr').count()).toBe(1)
    await page.getByLabel('Search by key').fill('')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(() => page.locator('table.grid tbody tr').count()).toBe(2)
  })

  it('previews text as text, and edits a tag', async () => {
    await page.getByRole('link', { name: 'hello.txt' }).click()
    const preview = page.getByTestId('text-preview')
    await preview.waitFor()
    expect(await preview.textContent()).toBe('hello from the console\n<b>not html</b>')
    expect(await preview.locator('b').count()).toBe(0)
    fileId = decodeURIComponent((await page.evaluate(() => location.hash)).replace('#/files/', ''))
    // A file without tags says so, with no bare table header; the index line says what it means.
    const tagsForm = page.getByRole('form', { name: 'Tags' })
    expect(await tagsForm.locator('p.muted').textContent()).toBe('none')
    expect(await tagsForm.getByRole('columnheader').count()).toBe(0)
    expect(await page.locator('dl.facts').textContent()).toContain('Search indexnot requested: not searchable')

    await page.getByRole('button', { name: 'Add a tag' }).click()
    await page.getByLabel('Tag 1 name').fill('team')
    await page.getByLabel('Tag team value').fill('support')
    await page.getByRole('button', { name: 'Save tags' }).click()
    await page.getByText('Tags saved.').waitFor()
    await shoot(page, 'file-details')

    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem('botshelf.console.session')!).token as string)
    const stored = (await (await api(`/v1/files/${fileId}`, token)).json()) as { file: { tags: Record<string, string> } }
    expect(stored.file.tags).toEqual({ team: 'support' })
  })

  it('uploads a document with "Index for search", finds its passage on the Search page, and opens the file from the result', async () => {
    await page.getByRole('link', { name: 'Files', exact: true }).click()
    await page.getByLabel('Index for search').check()
    const guide = '# Returns guide\n\n## Refunds\n\nCustomers get their money back within 14 days when the parcel is unopened.\n\n## Shipping\n\nParcels leave the warehouse every weekday at noon. <b>not html</b>\n'
    await page.getByTestId('file-input').setInputFiles({ name: 'returns.md', mimeType: 'text/markdown', buffer: Buffer.from(guide) })
    await page.getByRole('link', { name: 'returns.md' }).waitFor()

    // The console asked for indexing: the service indexes the file in the background.
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem('botshelf.console.session')!).token as string)
    const statusOf = async () => {
      const { files } = (await (await api('/v1/files?pageSize=100', token)).json()) as { files: Array<{ key: string; status: string; index: boolean }> }
      return files.find((file) => file.key === 'returns.md')
    }
    expect((await statusOf())?.index).toBe(true)
    await expect.poll(async () => (await statusOf())?.status, { timeout: 30_000 }).toBe('indexing_completed')

    await page.getByRole('link', { name: 'Search', exact: true }).click()
    await page.getByText("Search the passages of the bot's indexed files.").waitFor()
    const box = page.getByLabel('Query')
    await box.fill('refund money back')
    expect(await page.locator('#search-query-size').textContent()).toBe('17 / 1024 bytes')
    await box.press('Enter')
    const results = page.getByTestId('search-result')
    await results.first().waitFor()
    // The result whose own passage (not a neighbour shown as context) holds the answer.
    const best = results.filter({ has: page.getByTestId('result-content').filter({ hasText: 'money back within 14 days' }) })
    expect(await best.getByRole('link', { name: 'returns.md' }).count()).toBe(1)
    expect(await best.getByTestId('result-content').textContent()).toContain('money back within 14 days')
    const score = Number(await best.locator('.result-score data').getAttribute('value'))
    expect(score).toBeGreaterThan(0)
    expect(await best.locator('.result-score').textContent()).toBe(`score ${score.toFixed(4)}`)
    expect(await best.locator('.result-meta').textContent()).toContain('paragraph')
    // No context unless asked.
    expect(await page.getByTestId('context-breadcrumb').count()).toBe(0)

    // With context: the heading path and the neighbouring passages, as text (the <b> stays text).
    await page.getByLabel('With context (headings and the passages around each hit)').check()
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await best.getByTestId('context-breadcrumb').waitFor()
    expect(await best.getByTestId('context-breadcrumb').textContent()).toContain('Refunds')
    expect(await best.getByTestId('context-preceding').count()).toBeGreaterThan(0)
    const following = await best.getByTestId('context-subsequent').allTextContents()
    expect(following.join('\n')).toContain('Shipping')
    expect(await page.locator('.results b').count()).toBe(0)
    await shoot(page, 'search')

    // A tag filter no file has: the service filters before ranking, and the page says no passage is relevant.
    await page.getByRole('textbox', { name: 'Tag', exact: true }).fill('team')
    await page.getByLabel('Tag values (comma separated)').fill('nobody')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.getByText('No relevant passage.').waitFor()
    await page.getByRole('button', { name: 'Remove the tag filter team' }).click()

    // Over 1024 bytes (600 two-byte letters): the page says so, sends it anyway, and shows the service's refusal.
    await box.fill('é'.repeat(600))
    expect(await page.locator('#search-query-size').textContent()).toBe('1200 / 1024 bytes: too long')
    expect(await box.getAttribute('aria-invalid')).toBe('true')
    await box.press('Enter')
    const refusal = page.getByRole('alert')
    await refusal.waitFor()
    expect(await refusal.textContent()).toMatch(/^InvalidPayload: .*query/)
    expect(await results.count()).toBe(0)

    // Back to a good query, then open the file from its result.
    await box.fill('parcel')
    await box.press('Enter')
    await results.first().waitFor()
    await results.first().getByRole('link', { name: 'returns.md' }).click()
    await page.getByRole('heading', { name: 'returns.md' }).waitFor()
    expect(await page.evaluate(() => location.hash)).toMatch(/^#\/files\/.+/)
    await page.getByText('indexing completed').first().waitFor()
  })

  it('creates a table, adds rows, filters them, and exports them with the job progress', async () => {
    await page.getByRole('link', { name: 'Tables' }).click()
    await page.getByText('No tables yet.').waitFor()
    await page.getByLabel('Name (ends with "Table", e.g. ordersTable)').fill('peopleTable')
    await page.getByLabel('Column 1 name').fill('name')
    await page.getByRole('button', { name: 'Add a column' }).click()
    await page.getByLabel('Column 2 name').fill('age')
    await page.getByLabel('type').nth(1).selectOption('number')
    await page.getByRole('button', { name: 'Create table' }).click()
    await page.getByRole('heading', { name: /peopleTable/ }).waitFor()
    await page.getByText('No rows yet.').waitFor()

    const form = page.locator('form.new-row')
    for (const [name, age] of [['Ada', '36'], ['Linus', '28'], ['Grace', '45']] as const) {
      await form.getByLabel('name').fill(name)
      await form.getByLabel('age').fill(age)
      await form.getByRole('button', { name: 'Add row' }).click()
      await page.getByTestId('rows-grid').getByText(name, { exact: true }).waitFor()
    }
    const grid = page.getByTestId('rows-grid').locator('tbody tr')
    expect(await grid.count()).toBe(3)

    // A service error shows the service's message: a number column refuses text.
    await form.getByLabel('name').fill('Bad')
    await form.getByLabel('age').fill('"old"')
    await form.getByRole('button', { name: 'Add row' }).click()
    await page.getByRole('alert').filter({ hasText: 'InvalidDataFormat' }).waitFor()

    await page.getByRole('button', { name: 'Add a condition' }).click()
    await page.getByLabel('Condition 1 column').selectOption('age')
    await page.getByLabel('Condition 1 operator').selectOption('$gt')
    await page.getByLabel('Condition 1 value').fill('30')
    expect(await page.getByLabel('The filter as the service receives it').textContent()).toBe('{"age":{"$gt":30}}')
    await page.getByRole('button', { name: 'Apply filter' }).click()
    await expect.poll(() => grid.count()).toBe(2)
    expect(await page.getByTestId('rows-grid').getByText('Linus').count()).toBe(0)

    // A bad raw JSON filter (unreadable, then refused by the service) hides the rows of the filter before.
    await page.getByLabel('Raw JSON').check()
    await page.getByLabel('Filter as JSON').fill('{"age": ')
    await page.getByRole('button', { name: 'Apply filter' }).click()
    await page.getByTestId('rows-hidden').waitFor()
    expect(await grid.count()).toBe(0)
    await page.getByLabel('Filter as JSON').fill('{"age": {"$bogus": 1}}')
    await page.getByRole('button', { name: 'Apply filter' }).click()
    await page.getByRole('alert').filter({ hasText: 'InvalidQuery' }).waitFor()
    expect(await grid.count()).toBe(0)
    await page.getByLabel('Filter as JSON').fill('{"age": {"$gt": 30}}')
    await page.getByRole('button', { name: 'Apply filter' }).click()
    await expect.poll(() => grid.count()).toBe(2)
    await page.getByLabel('Raw JSON').uncheck()

    // Inline edit of a cell.
    await page.getByRole('button', { name: /^Edit age of row 1:/ }).click()
    await page.getByLabel('age of row 1').fill('37')
    await page.getByLabel('age of row 1').press('Enter')
    await page.getByRole('button', { name: 'Edit age of row 1: 37' }).waitFor()
    await shoot(page, 'table-rows')

    await page.getByRole('button', { name: 'Export' }).click()
    const download = page.getByTestId('export-download')
    await download.waitFor({ timeout: 20_000 })
    expect(await page.getByTestId('job-status').getByRole('progressbar').getAttribute('value')).toBe('100')
    const csv = await (await fetch(await download.getAttribute('href') as string)).text()
    expect(csv.split(/\r?\n/)[0]).toContain('name')
    expect(csv).toContain('Ada')
    expect(csv).toContain('37')
    expect(csv).toContain('Linus')
    await shoot(page, 'table-export')
  })

  // Many steps and one computation in the service's sandbox: more time than the default on a loaded machine.
  it('adds a boolean with a true/false choice, and edits a computed column and the table\'s compute switch', { timeout: 90_000 }, async () => {
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem('botshelf.console.session')!).token as string)
    const created = await api('/v1/tables', token, {
      method: 'POST',
      body: JSON.stringify({ name: 'doublesTable', schema: { a: { type: 'number' }, flag: { type: 'boolean' }, doubled: { type: 'number' } } }),
    })
    expect(created.status).toBe(200)
    await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Tables' }).click()
    await page.getByRole('link', { name: 'doublesTable' }).click()
    await page.getByText('No rows yet.').waitFor()
    const form = page.locator('form.new-row')
    expect(await form.getByLabel('flag').evaluate((element) => element.tagName)).toBe('SELECT')
    await form.getByLabel('a (number)').fill('2')
    await form.getByLabel('flag').selectOption('true')
    await form.getByRole('button', { name: 'Add row' }).click()
    await page.getByTestId('rows-grid').getByText('true', { exact: true }).waitFor()

    await page.getByRole('button', { name: 'Edit computation of doubled' }).click()
    await page.getByLabel('Action').selectOption('code')
    await page.getByLabel(/^Code/).fill('return row.a * 2')
    await page.getByRole('group', { name: 'Reads the columns' }).getByLabel('a', { exact: true }).check()
    await page.getByRole('button', { name: 'Save computation' }).click()
    await page.getByText('code: return row.a * 2').waitFor()
    await page.getByLabel(/^Compute enabled/).check()
    await expect.poll(async () => ((await (await api('/v1/tables/doublesTable', token)).json()) as { table: { isComputeEnabled?: boolean } }).table.isComputeEnabled).toBe(true)
    const { table } = (await (await api('/v1/tables/doublesTable', token)).json()) as { table: { schema: { properties: Record<string, { 'x-zui': Record<string, unknown> }> } } }
    expect(table.schema.properties['doubled']!['x-zui']['computed']).toEqual({ action: 'code', code: 'return row.a * 2', dependencies: ['a'], enabled: true })
    // The service computes the existing row with the new definition.
    await expect
      .poll(async () => ((await (await api('/v1/tables/doublesTable/rows/find', token, { method: 'POST', body: '{}' })).json()) as { rows: Array<{ doubled: number | null }> }).rows[0]!.doubled, { timeout: 20_000 })
      .toBe(4)
    // A refused definition (a cycle) keeps the editor open with the service's message.
    await page.getByRole('button', { name: 'Edit computation of a' }).click()
    await page.getByLabel('Action').selectOption('code')
    await page.getByLabel(/^Code/).fill('return row.doubled')
    await page.getByRole('group', { name: 'Reads the columns' }).getByLabel('doubled', { exact: true }).check()
    await page.getByRole('button', { name: 'Save computation' }).click()
    await page.getByRole('alert').filter({ hasText: 'InvalidPayload' }).waitFor()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await shoot(page, 'table-computed')
  })

  it('creates tokens (shown once) and revokes one, which then stops working', async () => {
    await page.getByRole('link', { name: 'Tokens and bots' }).click()
    await page.getByTestId('tokens-table').waitFor()
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Create a token' }) })
    await form.getByLabel('Role').selectOption('viewer')
    await form.getByLabel('Label').fill('viewer for the test')
    await form.getByRole('button', { name: 'Create token' }).click()
    viewerToken = await page.getByLabel('The new token').inputValue()
    expect(viewerToken).toMatch(/^bs_/)
    await page.getByRole('button', { name: 'Done' }).click()

    await form.getByLabel('Role').selectOption('developer')
    await form.getByLabel('Label').fill('to revoke')
    await form.getByRole('button', { name: 'Create token' }).click()
    const doomed = await page.getByLabel('The new token').inputValue()
    await page.getByRole('button', { name: 'Done' }).click()
    expect((await api('/v1/files', doomed)).status).toBe(200)

    await page.getByRole('button', { name: 'Revoke to revoke' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Revoke to revoke' }).count()).toBe(0)
    expect((await api('/v1/files', doomed)).status).toBe(401)
    await shoot(page, 'tokens')
  })

  it('a viewer sees files and tables but cannot delete or upload, and the API refuses the delete anyway', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 } })
    const viewer = await context.newPage()
    await viewer.goto(`${serve.url}/console/`)
    await shoot(viewer, 'sign-in')
    await viewer.getByLabel('Token', { exact: true }).fill(viewerToken)
    await viewer.getByRole('button', { name: 'Sign in' }).click()
    await viewer.getByRole('link', { name: 'hello.txt' }).waitFor()
    expect(await viewer.locator('.topbar .role').textContent()).toBe('viewer')
    // One bot: its name is text, not a select that looks disabled.
    expect(await viewer.locator('select#bot-switch').count()).toBe(0)
    expect(await viewer.getByTestId('bot-name').textContent()).toMatch(/^Bot \S+ \([0-9a-z_]{1,8}\)$/i)
    // Keyboard: the first Tab stop is the skip link, which leads to the page's content.
    await viewer.keyboard.press('Tab')
    expect(await viewer.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    expect(await viewer.locator('.dropzone').count()).toBe(0)
    expect(await viewer.getByRole('link', { name: 'Tokens and bots' }).count()).toBe(0)

    await viewer.getByRole('link', { name: 'hello.txt' }).click()
    await viewer.getByTestId('text-preview').waitFor()
    expect(await viewer.getByRole('button', { name: 'Delete this file' }).count()).toBe(0)
    expect(await viewer.getByRole('button', { name: 'Save tags' }).count()).toBe(0)
    await shoot(viewer, 'viewer-file')

    const refused = await api(`/v1/files/${fileId}`, viewerToken, { method: 'DELETE', body: '{}' })
    expect(refused.status).toBe(403)

    await viewer.getByRole('link', { name: 'Tables' }).click()
    await viewer.getByRole('link', { name: 'peopleTable' }).click()
    await viewer.getByTestId('rows-grid').waitFor()
    expect(await viewer.getByRole('button', { name: /^Delete row/ }).count()).toBe(0)
    expect(await viewer.locator('form.new-row').count()).toBe(0)
    await context.close()
  })

  it('raised no script error or CSP violation in the admin page', () => {
    expect(pageErrors, pageErrors.join('\n')).toEqual([])
  })
})
