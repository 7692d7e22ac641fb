// The one logger of botshelf and botshelf-server: its levels, its interface, the JSON logger and the shared body.
export { logThresholds, parseLogThreshold, passesThreshold, type LogLevel, type LogThreshold } from './log-level.js'
export { toLogger, type Logger, type LoggerLike, type LevelLogger, type LogFields } from './logger.js'
export { createRecordLogger, silentLogger, type LogRecord } from './record-logger.js'
export { createJsonLogger, type JsonLoggerOptions } from './json-logger.js'
export { withLogThreshold } from './threshold-logger.js'
