export { AuthStoreError } from './errors.js'
export type { AuthPort } from './auth-port.js'
export type {
  BotRecord,
  BotTokenInput,
  CreateTokenInput,
  CreatedToken,
  TokenCheck,
  TokenRecord,
  TokenScope,
  WorkspaceTokenInput,
} from './types.js'
export { checkTokenFor, checkTokenInput, hashToken, mintToken } from './token-rules.js'
export { tokenRowToRecord, type TokenRow } from './token-row.js'
