/** A labelled progress bar (0-100). */
export function ProgressBar({ label, value }: { label: string; value: number }) {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div>
      <div className="flex justify-between text-sm font-medium text-slate-800">
        <span id="progress-label">{label}</span>
        <span>{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="progress-label"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        className="mt-1 h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-green-700" style={{ width: `${String(percent)}%` }} />
      </div>
    </div>
  );
}
