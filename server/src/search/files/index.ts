export { registerSearchRoutes } from './search-routes.js'
export { shapeResults, resultFile, type PassagesAround, type ResultShape } from './search-results.js'
export { passageMeta, toWirePassage } from './passage-view.js'
