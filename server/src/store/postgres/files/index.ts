// The files and knowledge-bases ports on PostgreSQL and their migrations, as the adapter's root uses them.
export { PgFilesPort } from './files-port.js'
export { PgKnowledgeBasesPort } from './knowledge-bases-port.js'
export { postgresFilesMigrations } from './migrations.js'
