export { printRatio, ratioOf, RATIO_MARKER, type RatioRow } from './ratio-line.js'
