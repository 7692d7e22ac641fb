import { z } from 'zod'
import { memberRoles, tokenRoles } from 'botshelf/api'

/**
 * Body of `POST /v1/admin/tokens`: a token bound to one bot (`botId`, any role) or a workspace member token
 * (`workspace: true`, member roles only). The store checks the rest (unknown bot, integration name).
 *
 * @example
 * ```ts
 * CreateTokenBodySchema.parse({ botId: 'b1', role: 'viewer', label: 'dashboard' })
 * CreateTokenBodySchema.parse({ workspace: true, role: 'administrator' })
 * ```
 */
export const CreateTokenBodySchema = z
  .strictObject({
    workspace: z.boolean().optional(),
    botId: z.string().min(1).max(200).optional(),
    role: z.enum(tokenRoles),
    integrationName: z.string().min(1).max(200).optional(),
    label: z.string().min(1).max(200).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.workspace === true) {
      if (body.botId !== undefined) ctx.addIssue({ code: 'custom', path: ['botId'], message: 'botId: a workspace token reaches every bot; give botId or workspace: true, not both' })
      if (!(memberRoles as readonly string[]).includes(body.role)) {
        ctx.addIssue({ code: 'custom', path: ['role'], message: `role: a workspace token takes a member role (${memberRoles.join(', ')}), received "${body.role}"` })
      }
    } else if (body.botId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['botId'], message: 'botId: expected the id of the bot the token acts for (or workspace: true), received nothing' })
    }
  })

/**
 * Body of `POST /v1/admin/bots`.
 *
 * @example
 * ```ts
 * CreateBotBodySchema.parse({ name: 'support' })
 * ```
 */
export const CreateBotBodySchema = z.strictObject({ name: z.string().min(1).max(200).optional() })

/**
 * Body of `POST /v1/console/sign-in`: the one-time code from the link `botshelf serve` printed.
 *
 * @example
 * ```ts
 * SignInBodySchema.parse({ code: 'dGhpcyBpcyBhIGNvZGU' })
 * ```
 */
export const SignInBodySchema = z.strictObject({ code: z.string().min(1).max(200) })

/**
 * Query of `GET /v1/admin/tokens`: `botId` keeps the tokens that reach that bot, `all=true` lists revoked ones too.
 *
 * @example
 * ```ts
 * ListTokensQuerySchema.parse({ all: 'true' })
 * ```
 */
export const ListTokensQuerySchema = z.strictObject({
  botId: z.string().min(1).max(200).optional(),
  all: z.enum(['true', 'false']).optional(),
})
