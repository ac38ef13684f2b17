// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { find, render, settled, stubApi, submit, typeInto } from '../../testing/page.tsx';
import { TestCheckout } from './test-checkout.tsx';

const DECLINED = {
  status: 402,
  body: {
    error: {
      code: 'CARD_DECLINED',
      message: 'Your card was declined.',
      type: 'card_error',
      provider_code: 'card_declined',
    },
  },
};

describe('the test provider’s card form', () => {
  it('says a card was declined, and stops saying it once the student edits the card', async () => {
    stubApi(() => DECLINED);
    const container = render(<TestCheckout clientSecret="pi_1_secret_x" paymentIntentId="pi_1" amount="$25.00" />);
    await typeInto(container, 'Card number', '4000 0000 0000 0002');
    await typeInto(container, 'Expiry date (MM/YY)', '12/34');
    await typeInto(container, 'Security code (CVC)', '123');

    await submit(container.querySelector('form'));
    await settled();
    const alert = await find(container, '[role="alert"]');
    expect(alert.textContent).toBe('Your card was declined.');

    await typeInto(container, 'Card number', '4242 4242 4242 4242');
    expect(container.querySelector('[role="alert"]')).toBeNull();
  });
});
