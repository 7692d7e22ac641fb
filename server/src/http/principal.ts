// The principal model lives in api/ so the store can use it without importing the server.
export { memberRoles, tokenRoles, type MemberRole, type Principal, type TokenRole } from 'botshelf/api'
