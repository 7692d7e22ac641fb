/** A labelled progress bar (0 to 1; undefined while unknown). @example `<ProgressBar label="Uploading a.txt" value={0.4} />` */
export function ProgressBar({ label, value }: { label: string; value: number | undefined }) {
  const percent = value === undefined ? undefined : Math.round(Math.min(1, Math.max(0, value)) * 100)
  return (
    <div class="progress">
      <span class="progress-label">{label}</span>
      <progress max={100} value={percent} aria-label={label} />
      <span class="progress-value" aria-hidden="true">
        {percent === undefined ? '…' : `${percent}%`}
      </span>
    </div>
  )
}
