// The files and knowledge-bases stores on SQLite and their migrations, as the adapter's root uses them.
export { FilesRepository } from './files-port.js'
export { KnowledgeBasesRepository } from './knowledge-bases-port.js'
export { filesMigrations } from './migrations.js'
