export { authMiddleware } from './middleware.js'
export { bearerToken } from './bearer.js'
