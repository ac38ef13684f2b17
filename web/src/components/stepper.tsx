import { Link } from 'react-router';

export type StepState = 'complete' | 'current' | 'upcoming';

export interface Step {
  key: string;
  label: string;
  href: string;
  state: StepState;
}

const MARKER: Record<StepState, string> = {
  complete: 'border-green-700 bg-green-700 text-white',
  current: 'border-blue-700 bg-white text-blue-800 ring-4 ring-blue-100',
  upcoming: 'border-slate-400 bg-white text-slate-600',
};

/**
 * A vertical progress stepper. Each step says its state in words too (for screen readers and for
 * anyone who cannot tell the colours apart), and the current one is marked aria-current.
 */
export function Stepper({
  steps,
  label,
  stateLabels,
}: {
  steps: Step[];
  label: string;
  stateLabels: Record<StepState, string>;
}) {
  return (
    <nav aria-label={label}>
      <ol className="space-y-3">
        {steps.map((step, index) => (
          <li key={step.key}>
            <Link
              to={step.href}
              aria-current={step.state === 'current' ? 'step' : undefined}
              className="flex items-center gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-blue-400"
            >
              <span
                aria-hidden="true"
                className={`flex h-9 w-9 shrink-0 items-center justify-center rounded-full border-2 font-bold ${MARKER[step.state]}`}
              >
                {step.state === 'complete' ? '✓' : index + 1}
              </span>
              <span className="flex-1">
                <span className="block font-semibold text-slate-900">{step.label}</span>
                <span className="block text-sm text-slate-700">{stateLabels[step.state]}</span>
              </span>
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
