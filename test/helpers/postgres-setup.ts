import { afterAll } from 'vitest'
import { endTestFileDatabase } from './postgres-database.js'

// Setup file of the postgres test project: after a file's last test, the connections its backends left open end
// (the worker's database stays for its next file; the run's global setup drops it after the run).
afterAll(endTestFileDatabase)
