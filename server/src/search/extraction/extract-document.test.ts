import { beforeAll, describe, expect, it } from 'vitest'
import {
  blankPagesPdf,
  contentTypes,
  csvDocument,
  deeplyNestedHtml,
  docxDocument,
  htmlDocument,
  markdownDocument,
  pdfDocument,
  pptxDocument,
  randomBytes,
  sampleDocuments,
  type SampleDocument,
  textDocument,
  truncated,
  xlsxDocument,
  zipBomb,
} from '../../../../test/helpers/documents/index.js'
import { extractDocumentHere } from './extract-document.js'
import { ExtractionError } from './extraction-error.js'
import { DEFAULT_EXTRACTION_LIMITS, type ExtractionLimits } from './limits.js'
import type { ExtractedPassage } from './passage.js'

// Extraction in this thread (what each worker runs): formats, structure and hostile input. The worker pool and
// its limits are tested in extract-passages.test.ts.
const extract = (doc: { content: Uint8Array; contentType: string; key: string }, limits: Partial<ExtractionLimits> = {}, maximumChunkLength?: number) =>
  extractDocumentHere(doc, { limits: { ...DEFAULT_EXTRACTION_LIMITS, ...limits }, maximumChunkLength })

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError)
    return error as ExtractionError
  }
  throw new Error('expected an ExtractionError, but the extraction succeeded')
}

const view = (passages: ExtractedPassage[]) => passages.map((p) => [p.meta.subtype, p.meta.pageNumber, p.breadcrumb, p.content])

describe('every format of the sample set', () => {
  let samples: SampleDocument[]
  beforeAll(async () => {
    samples = await sampleDocuments()
  })

  it('finds each document’s fact, with positions in order and every passage a chunk', async () => {
    expect(samples.map((s) => s.format).sort()).toEqual(['csv', 'docx', 'html', 'markdown', 'pdf', 'pptx', 'text', 'xlsx'])
    for (const sample of samples) {
      const passages = await extract(sample.document)
      expect(passages.some((p) => p.content.includes(sample.fact)), `${sample.format}: ${sample.fact}`).toBe(true)
      expect(passages.map((p) => p.meta.position)).toEqual(passages.map((_, i) => i))
      expect(passages.every((p) => p.meta.type === 'chunk' && p.content.trim() !== '')).toBe(true)
    }
  })
})

describe('PDF', () => {
  it('reads text per page with page numbers, headings by font size and paragraphs by gaps', async () => {
    const doc = await pdfDocument([
      [{ heading: 'Installation guide', paragraphs: ['Download the package from the releases page and unpack it.', 'Run the setup script as an administrator.'] }],
      [{ heading: 'Configuration', paragraphs: ['Edit the settings file before the first start.'] }],
      [{ heading: 'Troubleshooting', paragraphs: ['Check the log folder when the service does not start.'] }],
    ])
    const passages = await extract(doc)
    expect(view(passages)).toEqual([
      ['title', 1, [], 'Installation guide'],
      ['paragraph', 1, ['Installation guide'], 'Download the package from the releases page and unpack it.\n\nRun the setup script as an administrator.'],
      ['title', 2, [], 'Configuration'],
      ['paragraph', 2, ['Configuration'], 'Edit the settings file before the first start.'],
      ['title', 3, [], 'Troubleshooting'],
      ['paragraph', 3, ['Troubleshooting'], 'Check the log folder when the service does not start.'],
    ])
  })

  it('refuses more pages than maxPages before reading any (TOO_MANY_PAGES)', async () => {
    const error = await failure(extract(await blankPagesPdf(30), { maxPages: 20 }))
    expect(error.code).toBe('TOO_MANY_PAGES')
    expect(error.message).toBe('many-pages.pdf has 30 pages, more than the 20 allowed')
  })

  it('joins the lines of a wrapped paragraph into one text', async () => {
    const long = 'The quick brown fox jumps over the lazy dog and keeps running through the forest until night falls on the valley.'
    const doc = await pdfDocument([[{ heading: 'Story', paragraphs: [long] }]], { lineChars: 30 })
    const passages = await extract(doc)
    expect(passages[1]!.content).toBe(long)
  })
})

describe('DOCX', () => {
  it('keeps headings (by style), lists and tables through the HTML path', async () => {
    const doc = docxDocument([
      { heading: 'Handbook', level: 1 },
      { paragraph: 'Welcome to the team.' },
      { heading: 'Tools', level: 2 },
      { bullets: ['Laptop', 'Badge'] },
      { table: [['Tool', 'Owner'], ['Laptop', 'IT'], ['Badge', 'Security']] },
    ])
    expect(view(await extract(doc))).toEqual([
      ['title', undefined, [], 'Handbook'],
      ['paragraph', undefined, ['Handbook'], 'Welcome to the team.'],
      ['subtitle', undefined, ['Handbook'], 'Tools'],
      ['list', undefined, ['Handbook', 'Tools'], '- Laptop\n- Badge'],
      ['table', undefined, ['Handbook', 'Tools'], '| Tool | Owner |\n| --- | --- |\n| Laptop | IT |\n| Badge | Security |'],
    ])
  })
})

describe('PPTX', () => {
  it('makes each slide a page in presentation order, the title placeholder its heading, and reads tables', async () => {
    // Files slide1..slide3 hold slides shown 3rd, 1st and 2nd.
    const doc = pptxDocument(
      [
        { title: 'Opening', bullets: ['Hello everyone'] },
        { title: 'Numbers', bullets: ['Sales grew'], table: [['Year', 'Sales'], ['2025', '12']] },
        { bullets: ['A slide without title'] },
      ],
      { order: [3, 1, 2] },
    )
    expect(view(await extract(doc))).toEqual([
      ['title', 1, [], 'Opening'],
      ['paragraph', 1, ['Opening'], 'Hello everyone'],
      ['title', 2, [], 'Numbers'],
      ['paragraph', 2, ['Numbers'], 'Sales grew'],
      ['table', 2, ['Numbers'], '| Year | Sales |\n| --- | --- |\n| 2025 | 12 |'],
      ['paragraph', 3, [], 'A slide without title'],
    ])
  })

  it('refuses more slides than maxPages', async () => {
    const doc = pptxDocument(Array.from({ length: 6 }, (_, i) => ({ title: `S${i}`, bullets: ['x'] })))
    expect((await failure(extract(doc, { maxPages: 5 }))).code).toBe('TOO_MANY_PAGES')
  })
})

describe('XLSX', () => {
  it('makes each sheet a page with its name as heading and header-aware rows', async () => {
    const doc = await xlsxDocument([
      { name: 'Inventory', rows: [['Item', 'Count', 'Checked'], ['Flour', 12, new Date(Date.UTC(2026, 0, 5))], ['Sugar', 4, '']] },
      { name: 'Notes', rows: [['Only a header row']] },
    ])
    expect(view(await extract(doc))).toEqual([
      ['title', 1, [], 'Inventory'],
      ['table', 1, ['Inventory'], 'Item: Flour; Count: 12; Checked: 2026-01-05\nItem: Sugar; Count: 4'],
      ['title', 2, [], 'Notes'],
      ['paragraph', 2, ['Notes'], 'Only a header row'],
    ])
  })
})

describe('HTML', () => {
  it('keeps the main text and drops scripts, styles, navigation, header, footer, aside and hidden parts', async () => {
    const doc = htmlDocument(`<!doctype html><html><head><style>p{color:red}</style><title>T</title></head><body>
      <header>Site header</header><nav><a href="/">Home</a></nav>
      <main><h1>Article</h1><p>First <b>bold</b> paragraph &amp; more.</p><aside>Related links</aside>
      <div hidden>secret</div><script>alert("x")</script><noscript>enable js</noscript><template><p>tpl</p></template>
      <blockquote>A wise quote.</blockquote><pre><code class="language-js">let a = 1 &lt; 2
  b()</code></pre>
      <h2>Data</h2><table><thead><tr><th>k</th><th>v</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>
      <ol><li>one<ul><li>nested</li></ul></li><li>two</li></ol><img src="x.png" alt="A diagram of the flow"> loose text</main>
      <footer>Footer text</footer></body></html>`)
    expect(view(await extract(doc))).toEqual([
      ['title', undefined, [], 'Article'],
      ['paragraph', undefined, ['Article'], 'First bold paragraph & more.\n\n> A wise quote.'],
      ['code', undefined, ['Article'], '```js\nlet a = 1 < 2\n  b()\n```'],
      ['subtitle', undefined, ['Article'], 'Data'],
      ['table', undefined, ['Article', 'Data'], '| k | v |\n| --- | --- |\n| a | 1 |'],
      ['list', undefined, ['Article', 'Data'], '1. one\n2. nested\n3. two\n\nA diagram of the flow\n\nloose text'],
    ])
  })

  it('reads the whole body when there is no main element', async () => {
    const passages = await extract(htmlDocument('<html><body><h3>Deep title</h3><div>Some <span>text</span></div></body></html>'))
    expect(view(passages)).toEqual([
      ['subtitle', undefined, [], 'Deep title'],
      ['paragraph', undefined, ['Deep title'], 'Some text'],
    ])
  })
})

describe('Markdown', () => {
  it('reads headings, lists, code with language, blockquotes, pipe tables and images', async () => {
    const doc = markdownDocument(
      '# Guide\n\nIntro with a [link](https://example.com).\n\n## Steps\n\n1. First\n2. Second\n   - sub\n\n```ts\nconst x = 1\n```\n\n> Note this.\n\n| a | b |\n|---|:-:|\n| 1 | 2 \\| 3 |\n\n![Architecture diagram](a.png)\n',
    )
    expect(view(await extract(doc))).toEqual([
      ['title', undefined, [], 'Guide'],
      ['paragraph', undefined, ['Guide'], 'Intro with a link.'],
      ['subtitle', undefined, ['Guide'], 'Steps'],
      ['list', undefined, ['Guide', 'Steps'], '1. First\n2. Second\n3. sub'],
      ['code', undefined, ['Guide', 'Steps'], '```ts\nconst x = 1\n```'],
      ['blockquote', undefined, ['Guide', 'Steps'], '> Note this.'],
      ['table', undefined, ['Guide', 'Steps'], '| a | b |\n| --- | --- |\n| 1 | 2 \\| 3 |'],
      ['image', undefined, ['Guide', 'Steps'], 'Architecture diagram'],
    ])
  })

  it('reads a long document in sections without losing order or headings', async () => {
    const sections = Array.from({ length: 400 }, (_, i) => `# Section ${i}\n\n- item ${i}a\n- item ${i}b\n\nParagraph ${i} text.\n`).join('\n')
    const passages = await extract(markdownDocument(sections))
    const titles = passages.filter((p) => p.meta.subtype === 'title').map((p) => p.content)
    expect(titles).toEqual(Array.from({ length: 400 }, (_, i) => `Section ${i}`))
    const last = passages[passages.length - 1]!
    expect(last.breadcrumb).toEqual(['Section 399'])
    expect(last.content).toBe('- item 399a\n- item 399b\n\nParagraph 399 text.')
  })
})

describe('CSV', () => {
  it('renders rows as header: value lines grouped into passages under the bound', async () => {
    const rows = [['id', 'name', 'comment'], ...Array.from({ length: 50 }, (_, i) => [`${i}`, `name ${i}`, i === 7 ? 'has, comma and "quotes"\nand a line break' : ''])]
    const passages = await extract(csvDocument(rows), {}, 200)
    expect(passages.length).toBeGreaterThan(5)
    expect(passages.every((p) => p.meta.subtype === 'table' && p.content.length <= 200)).toBe(true)
    const lines = passages.flatMap((p) => p.content.split('\n'))
    expect(lines[0]).toBe('id: 0; name: name 0')
    expect(lines).toContain('id: 7; name: name 7; comment: has, comma and "quotes" and a line break')
    expect(lines).toHaveLength(50)
  })

  it('reads semicolon-separated files', async () => {
    const doc = { ...textDocument('Stadt;Land\nWien;Österreich\n'), contentType: contentTypes.csv }
    expect((await extract(doc))[0]!.content).toBe('Stadt: Wien; Land: Österreich')
  })

  it('refuses an unterminated quoted field as CORRUPT_DOCUMENT naming the line', async () => {
    const error = await failure(extract({ ...textDocument('a,b\n1,"open\n2,3\n'), contentType: contentTypes.csv, key: 'bad.csv' }))
    expect(error.code).toBe('CORRUPT_DOCUMENT')
    expect(error.message).toMatch(/bad\.csv.*line 2/)
  })
})

describe('plain text and encodings', () => {
  it('splits paragraphs at blank lines', async () => {
    const passages = await extract(textDocument('Line one\nline two\n\n\n  \nSecond paragraph\r\n\r\nThird'), {}, 100)
    expect(passages.map((p) => p.content)).toEqual(['Line one line two\n\nSecond paragraph\n\nThird'])
  })

  it('reads UTF-8 with BOM, UTF-16 LE and BE with BOM, and Latin-1', async () => {
    const text = 'Crème brûlée für 5 €'
    const le = new Uint8Array([0xff, 0xfe, ...Array.from(text).flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])])
    const be = new Uint8Array([0xfe, 0xff, ...Array.from(text).flatMap((c) => [c.charCodeAt(0) >> 8, c.charCodeAt(0) & 0xff])])
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)])
    for (const content of [le, be, bom]) {
      expect((await extract({ content, contentType: 'text/plain', key: 'e.txt' }))[0]!.content).toBe(text)
    }
    const latin1 = new Uint8Array([...'Crème brûlée'].map((c) => c.charCodeAt(0)))
    expect((await extract({ content: latin1, contentType: 'text/html', key: 'l.html' }))[0]!.content).toBe('Crème brûlée')
  })

  it('reads a document labelled application/octet-stream by its extension', async () => {
    const passages = await extract({ content: new TextEncoder().encode('# Title\n\ntext'), contentType: 'application/octet-stream', key: 'notes.md' })
    expect(passages[0]!.meta.subtype).toBe('title')
  })
})

describe('hostile and broken documents', () => {
  it('stops a zip bomb of each OOXML format while inflating (TOO_LARGE)', async () => {
    for (const format of ['docx', 'pptx', 'xlsx'] as const) {
      const error = await failure(extract(zipBomb(format, 20 * 1024 * 1024), { maxInflatedBytes: 4 * 1024 * 1024 }))
      expect(error.code, format).toBe('TOO_LARGE')
      expect(error.message).toContain('zip bomb')
    }
  })

  it('refuses an archive with more entries than allowed', async () => {
    const doc = pptxDocument(Array.from({ length: 20 }, () => ({ bullets: ['x'] })))
    expect((await failure(extract(doc, { maxZipEntries: 10 }))).code).toBe('TOO_LARGE')
  })

  it('refuses random bytes labelled as each format', async () => {
    const expected: Record<string, string> = { pdf: 'CORRUPT_DOCUMENT', docx: 'CORRUPT_DOCUMENT', pptx: 'CORRUPT_DOCUMENT', xlsx: 'CORRUPT_DOCUMENT', html: 'CORRUPT_DOCUMENT', markdown: 'CORRUPT_DOCUMENT', csv: 'CORRUPT_DOCUMENT', text: 'CORRUPT_DOCUMENT' }
    for (const [format, contentType] of Object.entries(contentTypes)) {
      const error = await failure(extract(randomBytes(64 * 1024, 99, contentType, `random.${format}`)))
      expect([format, error.code]).toEqual([format, expected[format]])
      expect(error.message).toContain(`random.${format}`)
    }
  })

  it('refuses an empty file (EMPTY_DOCUMENT) and a document without text (NO_TEXT)', async () => {
    expect((await failure(extract({ content: new Uint8Array(), contentType: 'application/pdf', key: 'e.pdf' }))).code).toBe('EMPTY_DOCUMENT')
    expect((await failure(extract(textDocument('  \n\n\t\n')))).code).toBe('NO_TEXT')
    expect((await failure(extract(htmlDocument('<html><body><script>x()</script></body></html>')))).code).toBe('NO_TEXT')
  })

  it('refuses truncated binary documents as CORRUPT_DOCUMENT', async () => {
    const [pdf, docx, pptx, xlsx] = await Promise.all([
      pdfDocument([[{ heading: 'H', paragraphs: ['text '.repeat(200)] }]]),
      docxDocument([{ paragraph: 'text '.repeat(500) }]),
      pptxDocument([{ title: 'T', bullets: ['text '.repeat(500)] }]),
      xlsxDocument([{ name: 'S', rows: [['a'], ...Array.from({ length: 300 }, (_, i) => [`row ${i}`])] }]),
    ])
    for (const doc of [docx, pptx, xlsx]) {
      const error = await failure(extract(truncated(doc, 0.6)))
      expect([doc.key, error.code]).toEqual([doc.key, 'CORRUPT_DOCUMENT'])
    }
    // pdf.js recovers what it can from a cut PDF; it either fails as corrupt or finds no text, never crashes.
    const error = await failure(extract(truncated(pdf, 0.3)))
    expect(['CORRUPT_DOCUMENT', 'NO_TEXT']).toContain(error.code)
  })

  it('refuses deeply nested HTML before parsing it, closed or not (TOO_DEEP)', async () => {
    for (const closed of [true, false]) {
      const error = await failure(extract(deeplyNestedHtml(100_000, closed)))
      expect(error.code).toBe('TOO_DEEP')
      expect(error.message).toContain('100002 deep') // html and body around them
    }
    // Within the bound it is read.
    expect((await extract(deeplyNestedHtml(400)))[0]!.content).toBe('deep text')
  })

  it('refuses deeply nested Markdown (TOO_DEEP)', async () => {
    const error = await failure(extract(markdownDocument(`${'>'.repeat(600)} deep\n`)))
    expect(error.code).toBe('TOO_DEEP')
  })

  it('refuses an unsupported content type and a legacy Office file', async () => {
    expect((await failure(extract({ content: new Uint8Array([1]), contentType: 'image/png', key: 'a.png' }))).code).toBe('UNSUPPORTED_FORMAT')
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0])
    const error = await failure(extract({ content: ole, contentType: contentTypes.docx, key: 'old.docx' }))
    expect(error.code).toBe('UNSUPPORTED_FORMAT')
    expect(error.message).toContain('password-protected')
  })

  it('refuses output beyond maxOutputChars (TOO_LARGE)', async () => {
    const error = await failure(extract(textDocument('word '.repeat(10_000)), { maxOutputChars: 20_000 }))
    expect(error.code).toBe('TOO_LARGE')
  })
})
