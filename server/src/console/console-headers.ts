/**
 * The Content-Security-Policy of the console's own pages (decision 1104): scripts, styles and fetches from this
 * origin only, no inline script or style, no plugins but the PDF preview, no framing of the console.
 * `extraOrigin` (the `--public-url` origin when it differs) is allowed for previews and content fetches, because
 * content URLs are built on it.
 *
 * @example
 * ```ts
 * consoleContentSecurityPolicy() // "default-src 'self'; script-src 'self'; ..."
 * ```
 */
export function consoleContentSecurityPolicy(extraOrigin?: string): string {
  const content = extraOrigin ? `'self' ${extraOrigin}` : "'self'"
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${content} data: blob:`,
    `connect-src ${content}`,
    `frame-src ${content}`,
    `object-src ${content}`,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * Headers every console response carries: the CSP, `nosniff`, no referrer (a sign-in code lives in the URL
 * fragment, which browsers never send, but a token must not leak through a link either) and no framing.
 *
 * @example
 * ```ts
 * new Response(html, { headers: { ...consoleSecurityHeaders(), 'content-type': 'text/html; charset=utf-8' } })
 * ```
 */
export function consoleSecurityHeaders(extraOrigin?: string): Record<string, string> {
  return {
    'Content-Security-Policy': consoleContentSecurityPolicy(extraOrigin),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  }
}
