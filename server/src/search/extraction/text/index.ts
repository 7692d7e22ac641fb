/** Decoding the bytes of text formats (byte-order marks, charsets, Latin-1 fallback, binary detection). */
export { charsetOf, decodeText } from './decode-text.js'
