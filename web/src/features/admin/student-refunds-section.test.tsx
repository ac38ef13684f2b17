// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminStudent } from '@ts/contract';
import i18n from '../../lib/i18n.ts';
import { buttonNamed, byLabel, click, render, settled, stubApi, typeInto, unmountAll } from '../../testing/page.tsx';
import { centsFromDollars, StudentRefundsSection } from './student-refunds-section.tsx';

/** Decision 058: the refunds beside the payments on the admin student page, and the Refund action. */

afterEach(async () => {
  unmountAll();
  await i18n.changeLanguage('en');
});

const student = (overrides: Partial<AdminStudent> = {}) =>
  ({
    id: 7,
    first_name: 'Sam',
    last_name: 'Rivera',
    completed_at: null,
    payments: [
      {
        method: 'card',
        manual_method: null,
        amount_cents: 2995,
        recorded_by: null,
        created_at: '2026-11-20T15:00:00Z',
      },
    ],
    refunds: [],
    ...overrides,
  }) as AdminStudent;

describe('the refunds on the admin student page', () => {
  it('lists each refund with its amount, status, reason and who made it', () => {
    const container = render(
      <StudentRefundsSection
        canRefund={false}
        student={student({
          refunds: [
            {
              id: 1,
              amount_cents: 1000,
              currency: 'usd',
              status: 'succeeded',
              reason: 'Asked within the window',
              refunded_by: 'Ana Admin',
              created_at: '2026-11-21T15:00:00Z',
            },
            {
              id: 2,
              amount_cents: 500,
              currency: 'usd',
              status: 'pending',
              reason: null,
              refunded_by: null,
              created_at: '2026-11-22T15:00:00Z',
            },
          ],
        })}
      />,
    );
    expect(container.querySelector('h2')?.textContent).toBe('Refunds');
    const items = [...container.querySelectorAll('li')].map((item) => item.textContent);
    expect(items[0]).toContain('$10.00 (refunded): Asked within the window (Ana Admin)');
    expect(items[1]).toContain('$5.00 (pending) (in the payment provider)');
    expect(buttonNamed(container, 'Refund')).toBeUndefined();
  });

  it('asks for a reason, then confirms the amount before it refunds, and sends what was typed', async () => {
    const api = stubApi(() => ({ status: 201, body: { id: 3, amount_cents: 1250, status: 'succeeded' } }));
    const container = render(<StudentRefundsSection canRefund student={student()} />);

    await click(buttonNamed(container, 'Refund'));
    await typeInto(container, 'Amount to refund (USD)', '12.50');
    await click(buttonNamed(container, 'Review refund'));
    expect(container.textContent).toContain('Say why the payment is refunded.');
    expect(api.requests()).toEqual([]);

    await typeInto(container, 'Reason for the refund', 'Charged twice');
    await click(buttonNamed(container, 'Review refund'));
    expect(container.querySelector('dialog')?.textContent).toContain(
      '$12.50 goes back to the card Sam Rivera paid with.',
    );
    expect(api.requests()).toEqual([]);

    await click(buttonNamed(container, 'Refund now'));
    await settled();
    expect(api.requests().filter((request) => request.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: '/api/admin/students/7/refunds',
        body: { amount_cents: 1250, reason: 'Charged twice' },
      },
    ]);
  });

  it('warns that a full refund of an unfinished course closes it', async () => {
    stubApi(() => ({ status: 201, body: { id: 3, amount_cents: 2995, status: 'succeeded' } }));
    const container = render(<StudentRefundsSection canRefund student={student()} />);
    await click(buttonNamed(container, 'Refund'));
    await typeInto(container, 'Reason for the refund', 'Course not wanted');
    await click(buttonNamed(container, 'Review refund'));
    const dialog = container.querySelector('dialog')?.textContent ?? '';
    expect(dialog).toContain('$29.95 goes back');
    expect(dialog).toContain('the course will be closed');
  });

  it('says in the interface language when the amount is more than is left', async () => {
    await i18n.changeLanguage('es');
    stubApi(() => ({
      status: 409,
      body: { error: { code: 'REFUND_EXCEEDS_PAYMENT', message: 'At most 2995 cents are left.' } },
    }));
    const container = render(<StudentRefundsSection canRefund student={student()} />);
    await click(buttonNamed(container, 'Reembolsar'));
    await typeInto(container, 'Monto a reembolsar (USD)', '30');
    await typeInto(container, 'Motivo del reembolso', 'Cobro doble');
    await click(buttonNamed(container, 'Revisar reembolso'));
    await click(buttonNamed(container, 'Reembolsar ahora'));
    await settled();
    expect(container.querySelector('[role="alert"]')?.textContent).toContain(
      'Eso es más de lo que queda por reembolsar',
    );
    expect(byLabel(container, 'Motivo del reembolso').value).toBe('Cobro doble');
  });

  it('offers no Refund once nothing is left to refund', () => {
    const container = render(
      <StudentRefundsSection
        canRefund
        student={student({
          refunds: [
            {
              id: 1,
              amount_cents: 2995,
              currency: 'usd',
              status: 'succeeded',
              reason: 'All of it',
              refunded_by: 'Ana Admin',
              created_at: '2026-11-21T15:00:00Z',
            },
          ],
        })}
      />,
    );
    expect(buttonNamed(container, 'Refund')).toBeUndefined();
  });

  it('reads amounts in dollars as staff type them', () => {
    expect(['12', '12.5', '12.50', '$ 7.05', '0', '1.234', 'ten'].map(centsFromDollars)).toEqual([
      1200,
      1250,
      1250,
      705,
      null,
      null,
      null,
    ]);
  });
});
