import { errorMessage } from '../core/error-message.js'

/** Shows a failed call's message (the service's own), announced to screen readers. @example `<ErrorBanner error={error} />` */
export function ErrorBanner({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  if (error === undefined || error === null) return null
  return (
    <div class="banner banner-error" role="alert">
      <span>{errorMessage(error)}</span>
      {onDismiss && (
        <button type="button" class="link" onClick={onDismiss} aria-label="Dismiss the error">
          ✕
        </button>
      )}
    </div>
  )
}
