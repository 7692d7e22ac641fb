import { describe, expect, it } from 'vitest'
import { LanguageModelError, LanguageModelUnavailableError, unconfiguredLanguageModel } from '../../../language-model/index.js'
import { fileIndexingOptions } from './file-indexing-options.js'
import { imageType } from './image-caption.js'
import { IndexingNotes } from './indexing-notes.js'
import { modelRefusal, NO_LANGUAGE_MODEL } from './model-refusal.js'

describe('IndexingNotes', () => {
  it('groups the options not applied by reason, in the order they were noted', () => {
    const notes = new IndexingNotes()
    expect(notes.text()).toBeUndefined()
    notes.notApplied('parsing.smartCleanup', 'no model')
    notes.notApplied('vision', 'no pages')
    notes.notApplied('summarization', 'no model')
    notes.notApplied('summarization', 'no model')
    expect(notes.text()).toBe('indexed without parsing.smartCleanup, summarization: no model; indexed without vision: no pages')
  })
})

describe('modelRefusal', () => {
  it('names a missing model and a refusal; leaves an outage and other errors to the caller', async () => {
    const missing = await unconfiguredLanguageModel.complete({ messages: [] }).catch((error: unknown) => error)
    expect(modelRefusal(missing)).toBe(NO_LANGUAGE_MODEL)
    expect(modelRefusal(new LanguageModelError('LANGUAGE_MODEL_REJECTED', 'bad key'))).toBe('the language model refused (LANGUAGE_MODEL_REJECTED): bad key')
    expect(modelRefusal(new LanguageModelUnavailableError('down', 1000))).toBeUndefined()
    expect(modelRefusal(new Error('disk full'))).toBeUndefined()
  })
})

describe('fileIndexingOptions', () => {
  it('fills the defaults and reads page vision asked as true or as page numbers', () => {
    expect(fileIndexingOptions(null, 1000)).toEqual({
      maximumChunkLength: 1000, mode: 'standard', smartCleanup: false, summarize: false, minimumInputLength: 1000, outputTokenLimit: 1000, masterSummary: false, embedBreadcrumb: true, embeddedContextLevels: 0,
    })
    const options = fileIndexingOptions({ chunking: { maximumChunkLength: 400 }, summarization: { generateMasterSummary: true }, vision: { indexPages: [2] } }, 1000)
    expect(options).toMatchObject({ maximumChunkLength: 400, masterSummary: false, indexPages: [2] })
    expect(options.transcribePages).toBeUndefined()
    expect(fileIndexingOptions({ vision: { transcribePages: true, indexPages: false } }, 1000)).toMatchObject({ transcribePages: true })
    expect(fileIndexingOptions({ vision: { transcribePages: [], indexPages: false } }, 1000)).not.toHaveProperty('transcribePages')
    expect(fileIndexingOptions({ vision: { transcribePages: [], indexPages: false } }, 1000)).not.toHaveProperty('indexPages')
  })
})

describe('imageType', () => {
  it('reads the content type, else the extension of a generic one', () => {
    expect(imageType('image/png', 'a')).toBe('image/png')
    expect(imageType('application/octet-stream', 'photos/cat.JPG')).toBe('image/jpeg')
    expect(imageType('text/plain', 'cat.png')).toBeUndefined()
    expect(imageType('image/svg+xml', 'logo.svg')).toBeUndefined()
  })
})
