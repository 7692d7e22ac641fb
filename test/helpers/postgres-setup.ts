import { afterAll } from 'vitest'
import { dropTestFileDatabase } from './postgres-database.js'

// Setup file of the postgres test project: the database a test file made is dropped after its last test.
afterAll(dropTestFileDatabase)
