import type { ServiceFeature } from '../env.js'
import { exportTableJob } from './export-table-job.js'
import { importTableJob } from './import-table-job.js'
import { tablesRoutes } from './routes.js'

/**
 * The Tables API as a feature of the service: its routes and the background jobs that run imports and exports.
 *
 * @example
 * ```ts
 * const app = await createApp({ memory: true, features: [tablesFeature] })
 * ```
 */
export const tablesFeature: ServiceFeature = {
  name: 'tables',
  routes: tablesRoutes(),
  jobs: [importTableJob, exportTableJob],
}
