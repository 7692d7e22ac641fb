import { loadImage, createCanvas } from '@napi-rs/canvas'
import { afterAll, describe, expect, it } from 'vitest'
import { drawingPdf, truncated } from '../../../../test/helpers/documents/index.js'
import { closeExtractionWorkers, PAGE_RENDER_LIMITS, renderPdfPages } from './extract-passages.js'
import { ExtractionError } from './extraction-error.js'
import { pagesToRender } from './formats/pdf-pages.js'

// Page rendering for page vision (decision 1481), through the extraction worker: pdf.js draws on @napi-rs/canvas
// and the PNG is decoded back here to look at its pixels.
afterAll(() => closeExtractionWorkers())

/** The decoded image: its size and how many pixels are red (the drawn box) or dark (the text). */
async function pixels(png: Uint8Array) {
  const image = await loadImage(Buffer.from(png))
  const canvas = createCanvas(image.width, image.height)
  const context = canvas.getContext('2d')
  context.drawImage(image, 0, 0)
  const { data } = context.getImageData(0, 0, image.width, image.height)
  let red = 0
  let dark = 0
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!]
    if (r > 200 && g < 60 && b < 60) red++
    if (r < 90 && g < 90 && b < 90) dark++
  }
  return { width: image.width, height: image.height, red, dark }
}

describe('renderPdfPages', () => {
  it('renders the asked pages to PNG at the longest side, keeping the aspect, with what is drawn on them', async () => {
    // A portrait letter page with text and a landscape page whose box fills its left half.
    const doc = await drawingPdf([
      { width: 612, height: 792, box: { x: 100, y: 100, width: 200, height: 100 }, text: 'Quarterly report' },
      { width: 800, height: 400, box: { x: 0, y: 0, width: 400, height: 400 } },
    ])
    const rendered = await renderPdfPages({ content: doc.content, key: doc.key }, { pages: [2, 1, 2, 7] })
    expect(rendered.pageCount).toBe(2)
    expect(rendered.overCap).toEqual([])
    expect(rendered.pages.map((page) => page.pageNumber)).toEqual([1, 2])
    const [portrait, landscape] = await Promise.all(rendered.pages.map((page) => pixels(page.png)))
    expect(portrait).toMatchObject({ width: 1159, height: 1500 })
    expect(rendered.pages[0]).toMatchObject({ width: 1159, height: 1500 })
    // The box is 200 × 100 pt at 1500/792 px per pt: about 71,700 red pixels; the text draws dark ones.
    expect(portrait!.red).toBeGreaterThan(65_000)
    expect(portrait!.red).toBeLessThan(78_000)
    expect(portrait!.dark).toBeGreaterThan(500)
    expect(landscape).toMatchObject({ width: 1500, height: 750 })
    // Half the page is red, the other half white.
    expect(landscape!.red / (1500 * 750)).toBeCloseTo(0.5, 1)
    expect(landscape!.dark).toBe(0)
  })

  it('renders the first maxPages of the asked pages and lists the others', async () => {
    const box = { x: 10, y: 10, width: 20, height: 20 }
    const doc = await drawingPdf(Array.from({ length: 4 }, () => ({ width: 100, height: 100, box })))
    const rendered = await renderPdfPages({ content: doc.content, key: doc.key }, { pages: true, maxPages: 2 })
    expect(rendered.pages.map((page) => [page.pageNumber, page.width, page.height])).toEqual([
      [1, PAGE_RENDER_LIMITS.longestSidePx, PAGE_RENDER_LIMITS.longestSidePx],
      [2, PAGE_RENDER_LIMITS.longestSidePx, PAGE_RENDER_LIMITS.longestSidePx],
    ])
    expect(rendered).toMatchObject({ pageCount: 4, overCap: [3, 4] })
  })

  it('fails a PDF it cannot read with CORRUPT_DOCUMENT', async () => {
    const doc = await drawingPdf([{ width: 100, height: 100, box: { x: 0, y: 0, width: 10, height: 10 } }], 'cut.pdf')
    const error = await renderPdfPages({ content: truncated(doc, 0.2).content, key: 'cut.pdf' }, { pages: [1] }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ExtractionError)
    expect(error).toMatchObject({ code: 'CORRUPT_DOCUMENT' })
    expect((error as Error).message).toMatch(/^cut\.pdf could not be read as a PDF/)
  })
})

describe('pagesToRender', () => {
  it('keeps the pages the document has, sorted and once each', () => {
    expect(pagesToRender([3, 1, 3, 9, 0, -2], 5)).toEqual([1, 3])
    expect(pagesToRender(true, 3)).toEqual([1, 2, 3])
    expect(pagesToRender([], 3)).toEqual([])
  })
})
