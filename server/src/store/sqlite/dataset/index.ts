// The dataset port on SQLite (export and import of a whole backend), as the adapter's root uses it.
export { SqliteDatasetStore } from './dataset-port.js'
