/**
 * A subscription's signing secret, shown once (after creation or rotation) with a copy button.
 *
 * @example
 * ```tsx
 * <SecretBanner webhookId="wh_1" secret="whsec_..." onDone={() => setSecret(undefined)} />
 * ```
 */
export function SecretBanner({ webhookId, secret, onDone }: { webhookId: string; secret: string; onDone: () => void }) {
  return (
    <div class="banner banner-ok" role="status" data-testid="webhook-secret">
      <p>
        Signing secret of <code>{webhookId}</code>. Copy it now into the receiver's configuration: it is shown once.
      </p>
      <input readOnly aria-label="The signing secret" value={secret} onFocus={(e) => e.currentTarget.select()} />
      <button type="button" onClick={() => void navigator.clipboard?.writeText(secret)}>
        Copy
      </button>
      <button type="button" class="link" onClick={onDone}>
        Done
      </button>
    </div>
  )
}
