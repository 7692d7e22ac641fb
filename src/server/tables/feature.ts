import type { ServiceFeature } from '../env.js'
import { tablesMigrations } from '../../store/sqlite/tables-migrations.js'
import { tablesRoutes } from './routes.js'

/**
 * The Tables API as a feature of the service: its migrations (the catalog and jobs tables) and its routes.
 *
 * @example
 * ```ts
 * const app = createApp({ memory: true, features: [tablesFeature] })
 * ```
 */
export const tablesFeature: ServiceFeature = {
  name: 'tables',
  migrations: tablesMigrations,
  routes: tablesRoutes,
}
