import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_DIR } from '../../db/seed.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createCounty, createCourt } from '../../testing/factories.ts';

interface CourtItem {
  id: number;
  name: string;
  county_id: number;
  state: string;
}

/** The court names of the reviewed content file that the database is loaded from. */
function contentCourtNames(): string[] {
  const file = JSON.parse(fs.readFileSync(path.join(CONTENT_DIR, 'courts.json'), 'utf8')) as {
    counties: { courts: { name: string }[] }[];
  };
  return file.counties.flatMap((county) => county.courts.map((court) => court.name));
}

describe('GET /api/public/courts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const listCourts = (query = '') => t.app.inject({ method: 'GET', url: `/api/public/courts${query}` });

  it('lists every court of the content files, sorted by name', async () => {
    const response = await listCourts();
    expect(response.statusCode).toBe(200);
    const names = response.json<CourtItem[]>().map((court) => court.name);
    expect(names).toEqual(expect.arrayContaining(contentCourtNames()));
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('shows a court the school adds, in its place by name', async () => {
    const court = await createCourt(t.db, { name: 'AAA First Traffic Court' });
    const response = await listCourts();
    expect(response.json<CourtItem[]>()[0]).toEqual({
      id: court.id,
      name: court.name,
      county_id: court.countyId,
      state: 'ZZ',
    });
  });

  it('gives each court its id, name, county and state only: never the clerk’s email or the price', async () => {
    await createCourt(t.db, { email: 'clerk.secret@court.example', priceCents: 1234 });
    const response = await listCourts();
    for (const court of response.json<Record<string, unknown>[]>()) {
      expect(Object.keys(court).sort()).toEqual(['county_id', 'id', 'name', 'state']);
    }
    expect(response.body).not.toContain('clerk.secret@court.example');
    expect(response.body).not.toContain('1234');
  });

  it('lists only the courts of one county when asked', async () => {
    const countyId = await createCounty(t.db, { state: 'NV' });
    const second = await createCourt(t.db, { countyId, name: 'Zeta County Court' });
    const first = await createCourt(t.db, { countyId, name: 'Alpha County Court' });
    await createCourt(t.db);

    const response = await listCourts(`?countyId=${String(countyId)}`);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { id: first.id, name: 'Alpha County Court', county_id: countyId, state: 'NV' },
      { id: second.id, name: 'Zeta County Court', county_id: countyId, state: 'NV' },
    ]);
  });

  it('answers an empty list for a county without courts', async () => {
    const countyId = await createCounty(t.db);
    const response = await listCourts(`?countyId=${String(countyId)}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it.each(['abc', '0', '-2', '1.5'])('refuses the county id %s with a JSON 400', async (countyId) => {
    const response = await listCourts(`?countyId=${countyId}`);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: [{ field: 'countyId' }] });
  });
});
