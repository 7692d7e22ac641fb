import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { testPostgresAdminUrl } from '../../server/src/store/postgres/test-database.test-support.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The name prefix of this run's PostgreSQL test databases (see {@link setupPostgresTestRun}). */
    postgresRunPrefix: string
  }
}

/**
 * A vitest `globalSetup` of the postgres project: a name prefix for this run's test databases, given to the
 * workers with `provide`. Each worker keeps one database for all the files it runs (test/helpers/postgres-database.ts);
 * the teardown drops every database of the run, so nothing outlives it (two runs side by side never touch each
 * other's databases).
 *
 * @example
 * ```ts
 * // vitest.config.ts, in the postgres project: globalSetup: ['test/helpers/postgres-global-setup.ts']
 * const prefix = inject('postgresRunPrefix')
 * ```
 */
export default function setupPostgresTestRun(project: { provide(key: 'postgresRunPrefix', value: string): void }): () => Promise<void> {
  const prefix = `botshelf_r${randomBytes(4).toString('hex')}`
  project.provide('postgresRunPrefix', prefix)
  return async () => {
    const server = postgres(testPostgresAdminUrl, { max: 1, onnotice: () => {} })
    try {
      const made = await server<Array<{ datname: string }>>`SELECT datname FROM pg_database WHERE starts_with(datname, ${`${prefix}_`})`
      for (const { datname } of made) await server`DROP DATABASE IF EXISTS ${server(datname)} WITH (FORCE)`
    } finally {
      await server.end({ timeout: 5 })
    }
  }
}
