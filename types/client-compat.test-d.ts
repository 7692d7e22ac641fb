import { expectAssignable } from 'tsd'
import type { files, tables } from '@botpress/client'
import type { Client } from 'botshelf/client'

// Type-level compatibility with @botpress/client 1.45: every input the official client accepts is accepted
// by botshelf's client (code written for it compiles unchanged), and every botshelf response is assignable to
// the official response type (code reading official responses compiles unchanged).
declare const client: Client
type Input<K extends keyof Client> = Client[K] extends (input: infer I, ...rest: never[]) => unknown ? I : never
type Output<K extends keyof Client> = Client[K] extends (...args: never[]) => Promise<infer O> ? O : never

// One known difference: the official types declare indexing.configuration.vision.transcribePages/indexPages as
// objects (a generation quirk); the wire format and botshelf take `true` or a page-number array.
type WithoutIndexing<T> = Omit<T, 'indexing'>
expectAssignable<WithoutIndexing<Input<'upsertFile'>>>({} as WithoutIndexing<files.ClientInputs['upsertFile']>)
expectAssignable<files.ClientOutputs['upsertFile']>({} as Output<'upsertFile'>)
expectAssignable<Input<'deleteFile'>>({} as files.ClientInputs['deleteFile'])
expectAssignable<files.ClientOutputs['deleteFile']>({} as Output<'deleteFile'>)
expectAssignable<Input<'listFiles'>>({} as files.ClientInputs['listFiles'])
expectAssignable<files.ClientOutputs['listFiles']>({} as Output<'listFiles'>)
expectAssignable<Input<'getFile'>>({} as files.ClientInputs['getFile'])
expectAssignable<files.ClientOutputs['getFile']>({} as Output<'getFile'>)
expectAssignable<Input<'updateFileMetadata'>>({} as files.ClientInputs['updateFileMetadata'])
expectAssignable<files.ClientOutputs['updateFileMetadata']>({} as Output<'updateFileMetadata'>)
expectAssignable<Input<'copyFile'>>({} as files.ClientInputs['copyFile'])
expectAssignable<files.ClientOutputs['copyFile']>({} as Output<'copyFile'>)
expectAssignable<Input<'searchFiles'>>({} as files.ClientInputs['searchFiles'])
expectAssignable<files.ClientOutputs['searchFiles']>({} as Output<'searchFiles'>)
expectAssignable<Input<'listFilePassages'>>({} as files.ClientInputs['listFilePassages'])
expectAssignable<files.ClientOutputs['listFilePassages']>({} as Output<'listFilePassages'>)
expectAssignable<Input<'setFilePassages'>>({} as files.ClientInputs['setFilePassages'])
expectAssignable<files.ClientOutputs['setFilePassages']>({} as Output<'setFilePassages'>)
expectAssignable<Input<'listFileTags'>>({} as files.ClientInputs['listFileTags'])
expectAssignable<files.ClientOutputs['listFileTags']>({} as Output<'listFileTags'>)
expectAssignable<Input<'listFileTagValues'>>({} as files.ClientInputs['listFileTagValues'])
expectAssignable<files.ClientOutputs['listFileTagValues']>({} as Output<'listFileTagValues'>)
expectAssignable<Input<'createKnowledgeBase'>>({} as files.ClientInputs['createKnowledgeBase'])
expectAssignable<files.ClientOutputs['createKnowledgeBase']>({} as Output<'createKnowledgeBase'>)
expectAssignable<Input<'deleteKnowledgeBase'>>({} as files.ClientInputs['deleteKnowledgeBase'])
expectAssignable<files.ClientOutputs['deleteKnowledgeBase']>({} as Output<'deleteKnowledgeBase'>)
expectAssignable<Input<'updateKnowledgeBase'>>({} as files.ClientInputs['updateKnowledgeBase'])
expectAssignable<files.ClientOutputs['updateKnowledgeBase']>({} as Output<'updateKnowledgeBase'>)
expectAssignable<Input<'listKnowledgeBases'>>({} as files.ClientInputs['listKnowledgeBases'])
expectAssignable<files.ClientOutputs['listKnowledgeBases']>({} as Output<'listKnowledgeBases'>)
expectAssignable<Input<'listTables'>>({} as tables.ClientInputs['listTables'])
expectAssignable<tables.ClientOutputs['listTables']>({} as Output<'listTables'>)
expectAssignable<Input<'getTable'>>({} as tables.ClientInputs['getTable'])
expectAssignable<tables.ClientOutputs['getTable']>({} as Output<'getTable'>)
expectAssignable<Input<'getOrCreateTable'>>({} as tables.ClientInputs['getOrCreateTable'])
expectAssignable<tables.ClientOutputs['getOrCreateTable']>({} as Output<'getOrCreateTable'>)
expectAssignable<Input<'createTable'>>({} as tables.ClientInputs['createTable'])
expectAssignable<tables.ClientOutputs['createTable']>({} as Output<'createTable'>)
expectAssignable<Input<'duplicateTable'>>({} as tables.ClientInputs['duplicateTable'])
expectAssignable<tables.ClientOutputs['duplicateTable']>({} as Output<'duplicateTable'>)
expectAssignable<Input<'exportTable'>>({} as tables.ClientInputs['exportTable'])
expectAssignable<tables.ClientOutputs['exportTable']>({} as Output<'exportTable'>)
expectAssignable<Input<'getTableJobs'>>({} as tables.ClientInputs['getTableJobs'])
expectAssignable<tables.ClientOutputs['getTableJobs']>({} as Output<'getTableJobs'>)
expectAssignable<Input<'importTable'>>({} as tables.ClientInputs['importTable'])
expectAssignable<tables.ClientOutputs['importTable']>({} as Output<'importTable'>)
expectAssignable<Input<'updateTable'>>({} as tables.ClientInputs['updateTable'])
expectAssignable<tables.ClientOutputs['updateTable']>({} as Output<'updateTable'>)
expectAssignable<Input<'renameTableColumn'>>({} as tables.ClientInputs['renameTableColumn'])
expectAssignable<tables.ClientOutputs['renameTableColumn']>({} as Output<'renameTableColumn'>)
expectAssignable<Input<'deleteTable'>>({} as tables.ClientInputs['deleteTable'])
expectAssignable<tables.ClientOutputs['deleteTable']>({} as Output<'deleteTable'>)
expectAssignable<Input<'getTableRow'>>({} as tables.ClientInputs['getTableRow'])
expectAssignable<tables.ClientOutputs['getTableRow']>({} as Output<'getTableRow'>)
expectAssignable<Input<'findTableRows'>>({} as tables.ClientInputs['findTableRows'])
expectAssignable<tables.ClientOutputs['findTableRows']>({} as Output<'findTableRows'>)
expectAssignable<Input<'createTableRows'>>({} as tables.ClientInputs['createTableRows'])
expectAssignable<tables.ClientOutputs['createTableRows']>({} as Output<'createTableRows'>)
expectAssignable<Input<'deleteTableRows'>>({} as tables.ClientInputs['deleteTableRows'])
expectAssignable<tables.ClientOutputs['deleteTableRows']>({} as Output<'deleteTableRows'>)
expectAssignable<Input<'updateTableRows'>>({} as tables.ClientInputs['updateTableRows'])
expectAssignable<tables.ClientOutputs['updateTableRows']>({} as Output<'updateTableRows'>)
expectAssignable<Input<'upsertTableRows'>>({} as tables.ClientInputs['upsertTableRows'])
expectAssignable<tables.ClientOutputs['upsertTableRows']>({} as Output<'upsertTableRows'>)
// The official uploadFile input runs `content` through its Simplify type, which flattens Uint8Array into a plain
// object type; compare the other fields, and the content types the official client documents one by one.
type WithoutIndexingAndContent<T> = Omit<T, 'indexing' | 'content'>
expectAssignable<WithoutIndexingAndContent<Input<'uploadFile'>>>({} as WithoutIndexingAndContent<files.ClientInputs['uploadFile']>)
type UploadContentInput = NonNullable<Input<'uploadFile'>['content']>
expectAssignable<UploadContentInput>('text')
expectAssignable<UploadContentInput>(Buffer.from('x'))
expectAssignable<UploadContentInput>(new Uint8Array(1))
expectAssignable<UploadContentInput>(new ArrayBuffer(1))
expectAssignable<UploadContentInput>(new Blob(['x']))
expectAssignable<files.ClientOutputs['uploadFile']>({} as Output<'uploadFile'>)
void client
