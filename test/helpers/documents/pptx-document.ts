import { strToU8, zipSync } from 'fflate'
import { contentTypes, escapeXml, type GeneratedDocument } from './generated-document.js'

/** One slide of a generated deck: a title, bullet paragraphs, optionally a table. */
export interface Slide {
  title?: string
  bullets: string[]
  table?: string[][]
}

const A = 'http://schemas.openxmlformats.org/drawingml/2006/main'
const P = 'http://schemas.openxmlformats.org/presentationml/2006/main'
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/**
 * A minimal PPTX written by hand: content types, the presentation with its slide list (`sldIdLst`) and
 * relationships, and one `ppt/slides/slideN.xml` per slide with a title placeholder shape, a body shape and an
 * optional table. `order` lists slide file numbers in presentation order (default 1..n), to test that the
 * presentation's order wins over file names. Enough for a text reader, not a full deck (no masters or layouts).
 */
export function pptxDocument(slides: Slide[], options: { key?: string; order?: number[] } = {}): GeneratedDocument {
  const paragraphs = (texts: string[]) => texts.map((text) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${escapeXml(text)}</a:t></a:r></a:p>`).join('')
  const shape = (id: number, placeholder: string, texts: string[]) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr>${placeholder}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs(texts)}</p:txBody></p:sp>`
  const tableFrame = (rows: string[][]) =>
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${rows
      .map((row) => `<a:tr h="0">${row.map((cell) => `<a:tc><a:txBody><a:bodyPr/>${paragraphs([cell])}</a:txBody></a:tc>`).join('')}</a:tr>`)
      .join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
  const files: Record<string, string> = {}
  const order = options.order ?? slides.map((_, i) => i + 1)
  slides.forEach((slide, index) => {
    const number = order[index]!
    const title = slide.title === undefined ? '' : shape(2, '<p:ph type="title"/>', [slide.title])
    files[`ppt/slides/slide${number}.xml`] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:sld xmlns:a="${A}" xmlns:p="${P}" xmlns:r="${R}"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${title}${shape(3, '<p:ph idx="1"/>', slide.bullets)}${slide.table ? tableFrame(slide.table) : ''}</p:spTree></p:cSld></p:sld>`
  })
  files['ppt/presentation.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:presentation xmlns:a="${A}" xmlns:p="${P}" xmlns:r="${R}"><p:sldIdLst>${order.map((number, i) => `<p:sldId id="${256 + i}" r:id="rIdS${number}"/>`).join('')}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/></p:presentation>`
  files['ppt/_rels/presentation.xml.rels'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${order
    .map((number) => `<Relationship Id="rIdS${number}" Type="${R}/slide" Target="slides/slide${number}.xml"/>`)
    .join('')}</Relationships>`
  files['_rels/.rels'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="ppt/presentation.xml"/></Relationships>`
  files['[Content_Types].xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>${order
    .map((number) => `<Override PartName="/ppt/slides/slide${number}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`)
    .join('')}</Types>`
  const zipped = zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])))
  return { content: zipped, contentType: contentTypes.pptx, key: options.key ?? 'generated.pptx' }
}
