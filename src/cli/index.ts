export { runCli, mainHelp } from './main.js'
export { serveCommand, serveHelp, type ServeHandle } from './serve.js'
export { tokenCommand, tokenHelp } from './token.js'
export { UsageError, type CliIo } from './io.js'
