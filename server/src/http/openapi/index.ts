export { buildOpenApiDocument, type OpenApiOptions } from './document.js'
export { openApiRoutes } from './route.js'
export { describeRawRoute, describedRawRoutes, type RawRoute, type RawRouteParameter, type RawRouteResponse } from './raw-route.js'
export { rawRouteMatcher } from './raw-route-match.js'
