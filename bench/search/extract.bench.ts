/**
 * Extraction benchmark: `npx tsx bench/search/extract.bench.ts [--seconds 2]` (or `npm run bench:extract`).
 *
 * For one generated document per format (about 0.3 to 1 MB each, made by the test generators), measures documents/s
 * and MB/s of input for:
 * 1. botshelf in the caller's thread (`extractDocumentHere`: read + chunk, no worker),
 * 2. botshelf through the worker pool (`extractPassages`, the path the indexing job takes: copy to the worker,
 *    limits, structured clone of the passages back),
 * 3. a baseline measured in the same run: the bare library call for the format (pdf.js text of every page,
 *    mammoth's raw text, exceljs load, fflate unzip of the deck, node-html-parser parse, mdast parse) or, for CSV
 *    and plain text, a `TextDecoder` of the same bytes.
 * Prints a Markdown table for bench/README.md. Each figure is the median of three rounds of `--seconds` each.
 */
import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import ExcelJS from 'exceljs'
import { unzipSync } from 'fflate'
import mammoth from 'mammoth'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { parse as parseHtml } from 'node-html-parser'
import { extractDocumentHere } from '../../server/src/search/extraction/extract-document.js'
import { closeExtractionWorkers, extractPassages } from '../../server/src/search/extraction/index.js'
import { DEFAULT_EXTRACTION_LIMITS } from '../../server/src/search/extraction/limits.js'
import {
  csvDocument,
  docxDocument,
  type GeneratedDocument,
  htmlDocument,
  markdownDocument,
  pdfDocument,
  pptxDocument,
  textDocument,
  xlsxDocument,
} from '../../test/helpers/documents/index.js'

const argSeconds = process.argv.indexOf('--seconds')
const SECONDS = argSeconds > 0 ? Number(process.argv[argSeconds + 1]) : 2
const ROUNDS = 3

const sentence = (i: number) => `Record ${i} describes how the bakery prepares its sourdough, with flour, water and patience.`
const paragraphs = (count: number) => Array.from({ length: count }, (_, i) => `${sentence(i)} ${sentence(i + 1)} ${sentence(i + 2)}`)

async function documents(): Promise<Array<{ format: string; doc: GeneratedDocument; baseline: string; bare: (doc: GeneratedDocument) => Promise<unknown> | unknown }>> {
  const text = paragraphs(2000)
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const workerBuild = 'pdfjs-dist/legacy/build/pdf.worker.mjs'
  ;(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(workerBuild)
  return [
    {
      format: 'PDF',
      doc: await pdfDocument(Array.from({ length: 40 }, (_, p) => [{ heading: `Chapter ${p}`, paragraphs: text.slice(p * 6, p * 6 + 6) }])),
      baseline: 'pdf.js getTextContent of every page',
      bare: async (doc) => {
        const pdf = await pdfjs.getDocument({ data: doc.content.slice(), isEvalSupported: false, verbosity: 0 }).promise
        for (let i = 1; i <= pdf.numPages; i++) await (await pdf.getPage(i)).getTextContent()
        await pdf.destroy()
      },
    },
    {
      format: 'DOCX',
      doc: docxDocument(text.slice(0, 1500).flatMap((p, i) => (i % 20 === 0 ? [{ heading: `Part ${i}`, level: 1 as const }, { paragraph: p }] : [{ paragraph: p }]))),
      baseline: 'mammoth.extractRawText',
      bare: (doc) => mammoth.extractRawText({ buffer: Buffer.from(doc.content) }),
    },
    {
      format: 'PPTX',
      doc: pptxDocument(Array.from({ length: 200 }, (_, i) => ({ title: `Slide ${i}`, bullets: text.slice(i * 5, i * 5 + 5) }))),
      baseline: 'fflate unzipSync',
      bare: (doc) => unzipSync(doc.content),
    },
    {
      format: 'XLSX',
      doc: await xlsxDocument([{ name: 'Data', rows: [['id', 'name', 'note'], ...Array.from({ length: 5000 }, (_, i) => [i, `name ${i}`, sentence(i)])] }]),
      baseline: 'exceljs xlsx.load',
      bare: (doc) => new ExcelJS.Workbook().xlsx.load(Buffer.from(doc.content) as never),
    },
    {
      format: 'HTML',
      doc: htmlDocument(`<html><body><main>${text.map((p, i) => (i % 20 === 0 ? `<h2>Part ${i}</h2>` : '') + `<p>${p}</p>`).join('')}</main></body></html>`),
      baseline: 'node-html-parser parse',
      bare: (doc) => parseHtml(new TextDecoder().decode(doc.content)),
    },
    {
      format: 'Markdown',
      doc: markdownDocument(text.map((p, i) => (i % 20 === 0 ? `## Part ${i}\n\n` : '') + `${p}\n`).join('\n')),
      baseline: 'mdast fromMarkdown (whole document)',
      bare: (doc) => fromMarkdown(new TextDecoder().decode(doc.content)),
    },
    {
      format: 'CSV',
      doc: csvDocument([['id', 'name', 'note'], ...Array.from({ length: 8000 }, (_, i) => [`${i}`, `name ${i}`, sentence(i)])]),
      baseline: 'TextDecoder',
      bare: (doc) => new TextDecoder().decode(doc.content),
    },
    {
      format: 'Text',
      doc: textDocument(text.join('\n\n')),
      baseline: 'TextDecoder',
      bare: (doc) => new TextDecoder().decode(doc.content),
    },
  ]
}

/** Documents per second of `run`, the median of ROUNDS rounds of SECONDS each (at least one run per round). */
async function rate(run: () => Promise<unknown> | unknown): Promise<number> {
  await run()
  const rates: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    let count = 0
    const start = performance.now()
    while (count === 0 || performance.now() - start < SECONDS * 1000) {
      await run()
      count++
    }
    rates.push(count / ((performance.now() - start) / 1000))
  }
  return rates.sort((a, b) => a - b)[1]!
}

const rows: string[] = []
for (const { format, doc, baseline, bare } of await documents()) {
  const mb = doc.content.byteLength / 1e6
  const here = await rate(() => extractDocumentHere(doc, { limits: DEFAULT_EXTRACTION_LIMITS }))
  const worker = await rate(() => extractPassages(doc))
  const base = await rate(() => bare(doc))
  const passages = (await extractDocumentHere(doc, { limits: DEFAULT_EXTRACTION_LIMITS })).length
  const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1))
  rows.push(
    `| ${format} | ${mb.toFixed(2)} | ${passages} | ${f(here)} (${f(here * mb)}) | ${f(worker)} (${f(worker * mb)}) | ${f(base)} (${f(base * mb)}) ${baseline} | ${(here / base).toFixed(2)} |`,
  )
  console.error(`${format} done`)
}
await closeExtractionWorkers()

console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}. Date: ${new Date().toISOString().slice(0, 10)}. --seconds ${SECONDS}, median of ${ROUNDS} rounds.\n`)
console.log('| format | MB | passages | in thread: docs/s (MB/s) | worker pool: docs/s (MB/s) | baseline: docs/s (MB/s) | in thread / baseline |')
console.log('|---|---:|---:|---:|---:|---|---:|')
for (const row of rows) console.log(row)
