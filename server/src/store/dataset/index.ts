// The dataset port (what `botshelf export` / `botshelf import` read and write) and the parts both engines share.
export type { DatasetPort } from './dataset-port.js'
export { datasetPart, datasetParts, positionAfter, type DatasetPartName, type DatasetPartSpec, type DatasetRecord } from './dataset-parts.js'
