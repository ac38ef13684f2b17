/** The simulated students' sign-up (bench/api.ts, bench/journey.ts): one shape, a tag to keep them apart. */
export const BENCH_LAST_NAME = 'Runner';

/** The POST /api/register/student body for a simulated student; `tag` makes the licence and email unique. */
export function benchRegistration(tag: string, court: number) {
  return {
    first_name: 'Bench',
    last_name: BENCH_LAST_NAME,
    email: `bench${tag}@example.com`,
    dl_number: `B${tag}`,
    dob: '01/02/1990',
    address: '1 Loop Road',
    city: 'Fresno',
    state: 'CA',
    zip: '93721',
    court,
  };
}
