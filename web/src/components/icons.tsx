/** Small decorative icons for navigation; hidden from screen readers (the link text says it all). */
const base = 'h-5 w-5 shrink-0';

export function HomeIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={base} fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" strokeLinejoin="round" />
    </svg>
  );
}

export function CircleIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={base} fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="12" cy="12" r="8" />
    </svg>
  );
}

export function CheckCircleIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={base} fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="12" cy="12" r="9" fill="currentColor" fillOpacity="0.2" />
      <path d="M8 12.5l2.5 2.5L16 9.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function FlagIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={base} fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M5 21V4m0 0h11l-2 4 2 4H5" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}

export function AwardIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={base} fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="12" cy="9" r="5" />
      <path d="M9 13.5L7.5 21l4.5-2.5 4.5 2.5-1.5-7.5" strokeLinejoin="round" />
    </svg>
  );
}

export function LockIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={base} fill="none" stroke="currentColor" strokeWidth="2">
      <rect x="5" y="11" width="14" height="9" rx="1.5" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" strokeLinecap="round" />
    </svg>
  );
}
