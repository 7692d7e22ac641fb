export { colorsFor, type Colors } from './colors.js'
export { createProgress, type Progress, type ProgressOptions, type ProgressUnit } from './progress.js'
export { renderTable } from './table.js'
export { formatBytes, formatSeconds } from './units.js'
