/**
 * Document generators for tests: every test document is made here at run time (none is downloaded or committed).
 * Used by the extraction tests and by the search end-to-end tests, which upload them.
 */
export { contentTypes, type DocumentSection, type GeneratedDocument } from './generated-document.js'
export { blankPagesPdf, drawingPdf, pdfDocument, type DrawnPage } from './pdf-document.js'
export { docxDocument, type DocxBlock } from './docx-document.js'
export { pptxDocument, type Slide } from './pptx-document.js'
export { xlsxDocument, type Sheet } from './xlsx-document.js'
export { csvDocument, htmlDocument, markdownDocument, textDocument } from './text-documents.js'
export { sampleDocuments, type SampleDocument } from './sample-documents.js'
export { deeplyNestedHtml, randomBytes, truncated, zipBomb } from './hostile-documents.js'
