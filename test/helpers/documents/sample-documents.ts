import { docxDocument } from './docx-document.js'
import type { GeneratedDocument } from './generated-document.js'
import { pdfDocument } from './pdf-document.js'
import { pptxDocument } from './pptx-document.js'
import { csvDocument, htmlDocument, markdownDocument, textDocument } from './text-documents.js'
import { xlsxDocument } from './xlsx-document.js'

/**
 * One small document per format about a fictional bakery, each holding facts found nowhere else (`fact` is a
 * phrase its passages contain, `question` a question it answers), for extraction tests and search end-to-end tests.
 */
export interface SampleDocument {
  format: 'pdf' | 'docx' | 'pptx' | 'xlsx' | 'html' | 'markdown' | 'csv' | 'text'
  document: GeneratedDocument
  fact: string
  question: string
}

export async function sampleDocuments(): Promise<SampleDocument[]> {
  return [
    {
      format: 'pdf',
      fact: 'feed the sourdough starter twice a day',
      question: 'How often should the sourdough starter be fed?',
      document: await pdfDocument(
        [
          [
            { heading: 'Starter care', paragraphs: ['Bakers feed the sourdough starter twice a day with equal weights of rye flour and water.', 'Keep it at 24 degrees.'] },
          ],
          [{ heading: 'Baking day', paragraphs: ['The oven is preheated to 250 degrees for one hour before the first loaf goes in.'] }],
        ],
        { key: 'bakery/starter-guide.pdf' },
      ),
    },
    {
      format: 'docx',
      fact: 'refunds are accepted within 30 days',
      question: 'How long do customers have to ask for a refund?',
      document: docxDocument(
        [
          { heading: 'Customer policies', level: 1 },
          { heading: 'Refunds', level: 2 },
          { paragraph: 'Our refunds are accepted within 30 days of purchase with a receipt.' },
          { bullets: ['Cakes must be unopened', 'Bread is refunded as store credit'] },
          { heading: 'Gift cards', level: 2 },
          { table: [['Card', 'Validity'], ['Classic', '12 months'], ['Premium', '24 months']] },
        ],
        { key: 'bakery/policies.docx' },
      ),
    },
    {
      format: 'pptx',
      fact: 'open a second shop in Lyon',
      question: 'Where will the bakery open its second shop?',
      document: pptxDocument(
        [
          { title: 'Roadmap 2027', bullets: ['We plan to open a second shop in Lyon in spring.'] },
          { title: 'Budget', bullets: ['Ovens and rent'], table: [['Item', 'Cost'], ['Oven', '18000 EUR'], ['Rent', '2400 EUR']] },
        ],
        { key: 'bakery/roadmap.pptx' },
      ),
    },
    {
      format: 'xlsx',
      fact: 'Closes: 19:30',
      question: 'When does the Grenoble store close?',
      document: await xlsxDocument(
        [
          { name: 'Hours', rows: [['City', 'Opens', 'Closes'], ['Grenoble', '07:00', '19:30'], ['Annecy', '06:30', '18:00']] },
          { name: 'Staff', rows: [['Name', 'Role'], ['Mila', 'Head baker']] },
        ],
        { key: 'bakery/stores.xlsx' },
      ),
    },
    {
      format: 'html',
      fact: 'deliveries reach villages within 15 kilometres',
      question: 'How far does the bakery deliver?',
      document: htmlDocument(
        '<!doctype html><html><head><title>Delivery</title><script>var tracking = "do not index";</script></head><body><nav>Home | Shop</nav><main><h1>Delivery</h1><p>Our deliveries reach villages within 15 kilometres of the shop.</p><h2>Fees</h2><ul><li>Free above 40 EUR</li><li>5 EUR otherwise</li></ul></main><footer>Copyright</footer></body></html>',
        'bakery/delivery.html',
      ),
    },
    {
      format: 'markdown',
      fact: 'the hazelnut croissant contains tree nuts',
      question: 'Which pastry contains tree nuts?',
      document: markdownDocument(
        '# Allergens\n\nPlease note: the hazelnut croissant contains tree nuts.\n\n## Gluten\n\n- Every bread contains gluten\n- The macarons do not\n\n```\nallergen-code: TN-4\n```\n',
        'bakery/allergens.md',
      ),
    },
    {
      format: 'csv',
      fact: 'product: Baguette; price: 1.20',
      question: 'What does a baguette cost?',
      document: csvDocument(
        [
          ['product', 'price', 'notes'],
          ['Baguette', '1.20', 'daily'],
          ['Pain au chocolat', '1.50', 'contains "chocolate", butter'],
        ],
        'bakery/prices.csv',
      ),
    },
    {
      format: 'text',
      fact: 'founded in 1962 by Odette Marchand',
      question: 'Who founded the bakery?',
      document: textDocument('The bakery was founded in 1962 by Odette Marchand.\n\nIt moved to the market square in 1980.\n', 'bakery/history.txt'),
    },
  ]
}
