// The console's Webhooks page in Chromium against a real `botshelf serve`: add a subscription (secret shown once),
// an upload delivers to a receiver started here, the failed delivery is listed and retried, a viewer reads only.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/index.js'
import { spawnServe, type ServeProcess } from '../helpers/cli.js'
import { startReceiver } from '../server/webhooks/receiver.js'
import { launchChromium, unnamedControls } from './browser.test-support.js'

describe('console webhooks page in Chromium against botshelf serve', () => {
  let dataDir: string
  let serve: ServeProcess
  let browser: Browser
  let page: Page
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let adminToken = ''
  let secret = ''
  const pageErrors: string[] = []

  beforeAll(async () => {
    const { buildConsole } = await import('../../server/scripts/build-console.mjs')
    await buildConsole()
    receiver = await startReceiver()
    dataDir = await mkdtemp(join(tmpdir(), 'botshelf-console-webhooks-'))
    // A long retry schedule: the only second attempt in this file is the one the Retry button asks for.
    serve = await spawnServe(dataDir, ['--webhook-retries', '1h'])
    browser = await launchChromium()
    page = await (await browser.newContext({ viewport: { width: 1366, height: 800 } })).newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && pageErrors.push(message.text()))
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    serve?.child.kill('SIGTERM')
    await serve?.exited
    await receiver?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('adds a subscription and shows its secret once, with a copy button', async () => {
    const link = /(http\S+\/console\/#sign-in=[A-Za-z0-9_-]+)/.exec(serve.stderr())![1]!
    await page.goto(link)
    await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Webhooks' }).click()
    await page.getByText('No subscriptions yet.').waitFor()
    adminToken = await page.evaluate(() => JSON.parse(sessionStorage.getItem('botshelf.console.session')!).token as string)

    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add a subscription' }) })
    // A refused URL: the service's InvalidPayload names the field, and the form keeps what was typed.
    await form.getByLabel('URL').fill('ftp://example.com/x')
    await form.getByRole('button', { name: 'Add subscription' }).click()
    expect(await page.getByRole('alert').textContent()).toContain('url')
    expect(await form.getByLabel('URL').inputValue()).toBe('ftp://example.com/x')
    await page.getByRole('button', { name: 'Dismiss the error' }).click()
    await form.getByLabel('URL').fill(`${receiver.url}/console`)
    await form.getByLabel('Event types').fill('file.created, file.deleted')
    await form.getByLabel('Description').fill('from the console')
    await form.getByRole('button', { name: 'Add subscription' }).click()
    secret = await page.getByLabel('The signing secret').inputValue()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(await page.getByTestId('webhook-secret').getByRole('button', { name: 'Copy' }).count()).toBe(1)
    const row = page.getByTestId('webhooks-table').getByRole('row', { name: /from the console/ })
    expect(await row.textContent()).toContain('file.created, file.deleted')
    expect(await unnamedControls(page)).toEqual([])

    // Once: gone after Done, and never in the list nor after a reload.
    await page.getByTestId('webhook-secret').getByRole('button', { name: 'Done' }).click()
    await page.reload()
    await page.getByTestId('webhooks-table').waitFor()
    expect(await page.content()).not.toContain(secret)
    expect(await page.content()).not.toContain('whsec_')
  })

  it('lists a failed delivery with its status code, and Retry sends it again', async () => {
    receiver.script('/console', [500, 200])
    const client = new Client({ apiUrl: serve.url, token: serve.token!, botId: serve.botId })
    await client.uploadFile({ key: 'hello.txt', content: 'hello' })
    await receiver.waitFor(() => receiver.on('/console').length === 1, 'the first attempt')

    await page.getByRole('link', { name: `${receiver.url}/console` }).click()
    const details = page.getByTestId('webhook-details')
    await details.getByRole('heading', { name: /Subscription/ }).waitFor()
    // The attempt's outcome is recorded right after the answer: refresh until the row shows it.
    const deliveryRow = details.getByTestId('deliveries-table').locator('tbody tr')
    await expect
      .poll(async () => {
        await details.getByRole('button', { name: 'Refresh deliveries' }).click()
        return deliveryRow.first().getAttribute('data-status').then(async (status) => `${status} ${await deliveryRow.first().locator('td').nth(4).textContent()}`)
      })
      .toBe('pending 500')
    expect(await deliveryRow.count()).toBe(1)
    expect(await deliveryRow.first().textContent()).toContain('file.created')
    expect(await deliveryRow.first().locator('td').nth(3).textContent()).toBe('1')
    expect(await deliveryRow.first().locator('td').nth(5).textContent()).toContain('500')

    await details.getByRole('button', { name: /^Retry file\.created/ }).click()
    await receiver.waitFor(() => receiver.on('/console').length === 2, 'the retried attempt')
    const [first, second] = receiver.on('/console')
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id'])
    await expect
      .poll(async () => {
        await details.getByRole('button', { name: 'Refresh deliveries' }).click()
        return `${await deliveryRow.first().getAttribute('data-status')} ${await deliveryRow.first().locator('td').nth(3).textContent()} ${await deliveryRow.first().locator('td').nth(4).textContent()}`
      })
      .toBe('succeeded 2 200')
    expect(await unnamedControls(page)).toEqual([])
  })

  it('edits, rotates (new secret shown once) and deletes', async () => {
    const details = page.getByTestId('webhook-details')
    const settings = details.locator('form', { has: page.getByRole('heading', { name: 'Settings' }) })
    await settings.getByLabel('Description').fill('edited')
    await settings.getByLabel(/Disabled/).check()
    await settings.getByRole('button', { name: 'Save subscription' }).click()
    await expect.poll(() => page.getByTestId('webhooks-table').getByRole('row', { name: /edited/ }).textContent()).toContain('disabled')

    await details.getByRole('button', { name: 'Rotate secret' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click()
    const rotated = await page.getByLabel('The signing secret').inputValue()
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(secret)
    await page.getByTestId('webhook-secret').getByRole('button', { name: 'Done' }).click()
    const viewerToken = await createViewerToken()
    await expectViewerReadsOnly(viewerToken)

    await details.getByRole('button', { name: 'Delete subscription' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No subscriptions yet.').waitFor()
    expect(pageErrors).toEqual([])
  })

  async function createViewerToken(): Promise<string> {
    const response = await fetch(`${serve.url}/v1/admin/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ botId: serve.botId, role: 'viewer', label: 'webhooks viewer' }),
    })
    expect(response.status).toBe(200)
    return ((await response.json()) as { token: { token: string } }).token.token
  }

  async function expectViewerReadsOnly(viewerToken: string): Promise<void> {
    const viewer = await (await browser.newContext()).newPage()
    await viewer.goto(`${serve.url}/console/`)
    await viewer.getByLabel('Token', { exact: true }).fill(viewerToken)
    await viewer.getByRole('button', { name: 'Sign in' }).click()
    await viewer.getByRole('link', { name: 'Webhooks' }).click()
    await viewer.getByRole('link', { name: `${receiver.url}/console` }).click()
    // The table's header shows before its rows arrive: wait for the delivery row (the earlier test saw it succeed).
    await viewer.getByTestId('deliveries-table').locator('tbody tr[data-status]').first().waitFor()
    expect(await viewer.getByText(/Read-only/).count()).toBe(1)
    expect(await viewer.getByRole('button', { name: 'Add subscription' }).count()).toBe(0)
    expect(await viewer.getByRole('button', { name: 'Save subscription' }).count()).toBe(0)
    expect(await viewer.getByRole('button', { name: 'Rotate secret' }).count()).toBe(0)
    expect(await viewer.getByRole('button', { name: 'Delete subscription' }).count()).toBe(0)
    expect(await viewer.getByRole('button', { name: /^Retry/ }).count()).toBe(0)
    expect(await viewer.getByLabel('URL').isDisabled()).toBe(true)
    expect(await viewer.getByTestId('deliveries-table').textContent()).toContain('succeeded')
    await viewer.context().close()
  }
})
