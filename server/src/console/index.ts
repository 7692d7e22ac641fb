export { consoleRoutes, type ConsoleRoutesOptions } from './routes.js'
export { findConsoleFolder } from './console-folder.js'
export { consoleContentSecurityPolicy, consoleSecurityHeaders } from './console-headers.js'
