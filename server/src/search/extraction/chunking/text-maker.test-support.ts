const words = ['alpha', 'botshelf', 'river', 'stone', 'quantum', 'ledger', 'orbit', 'maple', 'signal', 'harbor', 'cedar', 'vector', 'lumen', 'prism', 'tundra', 'échelle', 'naïve', '数据', 'Zoë', 'x']

/** Random words, sentences and paragraphs from a seeded generator. */
export function textMaker(random: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1))
  const word = () => (random() < 0.01 ? 'y'.repeat(int(50, 400)) : pick(words))
  const sentence = () => {
    const parts = Array.from({ length: int(1, random() < 0.05 ? 200 : 25) }, word)
    parts[0] = parts[0]!.charAt(0).toUpperCase() + parts[0]!.slice(1)
    return `${parts.join(random() < 0.1 ? ' \n ' : ' ')}${pick(['.', '!', '?', '.'])}`
  }
  const paragraph = () => Array.from({ length: int(1, random() < 0.2 ? 60 : 6) }, sentence).join(' ')
  return { int, pick, word, sentence, paragraph }
}
