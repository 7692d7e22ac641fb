export { spawnModuleWorker } from './spawn-module-worker.js'
