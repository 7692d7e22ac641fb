import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'

/**
 * A modal confirmation on the native `<dialog>`: focus moves into it, Escape cancels, and focus returns to the
 * page when it closes.
 *
 * @example
 * ```tsx
 * <ConfirmDialog open={asking} title="Delete report.pdf?" confirmLabel="Delete" onConfirm={remove} onCancel={() => setAsking(false)} />
 * ```
 */
export function ConfirmDialog(props: {
  open: boolean
  title: string
  confirmLabel: string
  onConfirm: () => void
  onCancel: () => void
  children?: ComponentChildren
}) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (props.open && !dialog.open) dialog.showModal()
    if (!props.open && dialog.open) dialog.close()
  }, [props.open])
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="confirm-title" onCancel={(event) => (event.preventDefault(), props.onCancel())}>
      <h2 id="confirm-title">{props.title}</h2>
      {props.children}
      <div class="actions">
        <button type="button" onClick={props.onCancel} autofocus>
          Cancel
        </button>
        <button type="button" class="danger" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  )
}
