/** Reading ZIP archives (OOXML documents) under zip-bomb bounds. */
export { readZip, type ZipBounds } from './read-zip.js'
