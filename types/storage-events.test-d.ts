import { expectType } from 'tsd'
import { defineHook, isEventOfType, workflowColumnsHook, type BotEvent, type EventTypeRegistry, type Hook } from 'botshelf'
import type { File, Row, TableJob, Table } from 'botshelf/api'

// The storage event types are built-in: `types` narrows their payloads.
defineHook({
  name: 'indexed',
  point: 'afterIncoming',
  types: ['file.indexed', 'file.indexing_failed'],
  handler: ({ event }) => {
    expectType<File>(event.payload.file)
    expectType<string>(event.payload.file.key)
  },
})
defineHook({
  name: 'rows',
  point: 'afterIncoming',
  types: ['table.rows.created'],
  handler: ({ event }) => {
    expectType<string>(event.payload.table)
    expectType<Row[]>(event.payload.rows)
  },
})
defineHook({
  name: 'imports',
  point: 'afterIncoming',
  types: ['table.import.completed'],
  handler: ({ event }) => {
    expectType<TableJob>(event.payload.job)
  },
})
declare const event: BotEvent
if (isEventOfType(event, 'table.created')) expectType<Table>(event.payload.table)
if (isEventOfType(event, 'table.rows.deleted')) expectType<Array<{ id: number }>>(event.payload.rows)
expectType<{ file: File }>({} as EventTypeRegistry['file.deleted'])

// Workflow columns (decision 1424): `table.row.compute` carries the row, the column and the action to run.
defineHook({
  name: 'compute',
  point: 'afterIncoming',
  types: ['table.row.compute'],
  handler: ({ event }) => {
    expectType<Row>(event.payload.row)
    expectType<string>(event.payload.workflowId)
    expectType<string>(event.payload.column)
  },
})
expectType<Hook<'afterIncoming', 'table.row.compute'>>(workflowColumnsHook({ timeoutMs: 30_000 }))
