// The dataset port on PostgreSQL (export and import of a whole backend), as the adapter's root uses it.
export { PgDatasetPort } from './dataset-port.js'
