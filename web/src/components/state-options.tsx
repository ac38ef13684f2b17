import { US_STATES } from '@ts/contract';

/** The 50 states and DC as a select's options, by name (spec 5's state list). */
export function StateOptions() {
  return (
    <>
      {US_STATES.map(([code, name]) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </>
  );
}
