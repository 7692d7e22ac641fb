export { buildOpenApiDocument, type OpenApiOptions } from './document.js'
export { openApiRoutes } from './route.js'
