import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { renderTable } from '../output/index.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { runDataCommand } from './run-data-command.js'

/**
 * `botshelf webhooks add <url> [--type T]... [--description D]`: subscribes a URL to the bot's storage events and
 * prints its secret (shown this once).
 *
 * @example
 * ```ts
 * await webhooksAdd.run(['http://127.0.0.1:8080/events', '--type', 'file.indexed'], io)
 * ```
 */
export const webhooksAdd: Subcommand = {
  name: 'add',
  usage: 'botshelf webhooks add <url> [--type T]... [--description D] [--json]',
  help: `Subscribes a URL to the bot's storage events (docs/storage-events.md) and prints the signing secret,
shown this once: give it to the receiver (createWebhookHandler({ secret })).

Options:
  --type <t>          an event type to send (file.created, file.indexed, table.rows.created, ...); repeat it;
                      none: every type
  --description <d>   a note for people
  --json              print the subscription (with its secret) as JSON
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('webhooks', webhooksAdd, args, io, {
      ...connectionOptions,
      type: { type: 'string', multiple: true },
      description: { type: 'string' },
      json: { type: 'boolean' },
    })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('webhooks add', positionals, ['<url>'])
    return runDataCommand(values, io, async ({ client, signal }) => {
      const types = (values.type ?? []) as never[]
      const { webhook } = await client.createWebhook(
        { url: positionals[0]!, ...(types.length > 0 ? { types } : {}), ...(values.description !== undefined ? { description: values.description } : {}) },
        { signal },
      )
      if (values.json) io.stdout.write(`${JSON.stringify(webhook, null, 2)}\n`)
      else io.stdout.write(`${webhook.id}\nsecret: ${webhook.secret}\n`)
      io.stderr.write(`subscribed ${webhook.url} to ${webhook.types.length > 0 ? webhook.types.join(', ') : 'every storage event'}; the secret is not shown again\n`)
      return 0
    })
  },
}

/**
 * `botshelf webhooks ls [--json]`: the bot's subscriptions (never their secrets).
 *
 * @example
 * ```ts
 * await webhooksLs.run([], io)
 * ```
 */
export const webhooksLs: Subcommand = {
  name: 'ls',
  usage: 'botshelf webhooks ls [--json]',
  help: `Lists the bot's storage event subscriptions: id, URL, types, state (never their secrets).

Options:
  --json              print them as JSON
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('webhooks', webhooksLs, args, io, { ...connectionOptions, json: { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('webhooks ls', positionals, [])
    return runDataCommand(values, io, async ({ client, signal }) => {
      const all = []
      let nextToken: string | undefined
      do {
        const page = await client.listWebhooks({ ...(nextToken ? { nextToken } : {}), pageSize: 100 }, { signal })
        all.push(...page.webhooks)
        nextToken = page.meta.nextToken
      } while (nextToken)
      if (values.json) io.stdout.write(`${JSON.stringify(all, null, 2)}\n`)
      else io.stdout.write(renderTable(io.stdout, ['id', 'url', 'types', 'state'], all.map((w) => [w.id, w.url, w.types.length > 0 ? w.types.join(', ') : '(all)', w.disabled ? 'disabled' : 'enabled'])))
      return 0
    })
  },
}

/**
 * `botshelf webhooks rm <id>`: deletes a subscription and its deliveries.
 *
 * @example
 * ```ts
 * await webhooksRm.run(['wh_01K...'], io)
 * ```
 */
export const webhooksRm: Subcommand = {
  name: 'rm',
  usage: 'botshelf webhooks rm <id>',
  help: `Deletes a subscription and its deliveries.

Options:
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('webhooks', webhooksRm, args, io, { ...connectionOptions })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('webhooks rm', positionals, ['<id>'])
    return runDataCommand(values, io, async ({ client, signal }) => {
      await client.deleteWebhook({ id: positionals[0]! }, { signal })
      io.stderr.write(`deleted webhook ${positionals[0]}\n`)
      return 0
    })
  },
}

/**
 * `botshelf webhooks deliveries <id> [--json]`: a subscription's latest deliveries, newest first.
 *
 * @example
 * ```ts
 * await webhooksDeliveries.run(['wh_01K...'], io)
 * ```
 */
export const webhooksDeliveries: Subcommand = {
  name: 'deliveries',
  usage: 'botshelf webhooks deliveries <id> [--json]',
  help: `Lists a subscription's latest 100 deliveries, newest first: id, event type, status, attempts, last answer.

Options:
  --json              print them as JSON
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('webhooks', webhooksDeliveries, args, io, { ...connectionOptions, json: { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('webhooks deliveries', positionals, ['<id>'])
    return runDataCommand(values, io, async ({ client, signal }) => {
      const { deliveries } = await client.listWebhookDeliveries({ id: positionals[0]!, pageSize: 100 }, { signal })
      if (values.json) io.stdout.write(`${JSON.stringify(deliveries, null, 2)}\n`)
      else
        io.stdout.write(
          renderTable(
            io.stdout,
            ['id', 'type', 'status', 'attempts', 'last'],
            deliveries.map((d) => [d.id, d.type, d.status, String(d.attempts), d.lastError ?? (d.lastStatusCode !== undefined ? String(d.lastStatusCode) : '')]),
          ),
        )
      return 0
    })
  },
}

/**
 * `botshelf webhooks retry <id> <deliveryId>`: sends a delivery again now.
 *
 * @example
 * ```ts
 * await webhooksRetry.run(['wh_01K...', 'whd_01K...'], io)
 * ```
 */
export const webhooksRetry: Subcommand = {
  name: 'retry',
  usage: 'botshelf webhooks retry <id> <deliveryId>',
  help: `Sends a delivery again now (a failed one too); the receiver sees the same webhook-id.

Options:
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('webhooks', webhooksRetry, args, io, { ...connectionOptions })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('webhooks retry', positionals, ['<id>', '<deliveryId>'])
    return runDataCommand(values, io, async ({ client, signal }) => {
      const { delivery } = await client.retryWebhookDelivery({ id: positionals[0]!, deliveryId: positionals[1]! }, { signal })
      io.stderr.write(`queued delivery ${delivery.id} (${delivery.type}) again\n`)
      return 0
    })
  },
}
