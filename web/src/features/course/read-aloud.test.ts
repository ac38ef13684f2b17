// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { collectSentences } from './read-aloud.tsx';

describe('the sentences Read aloud speaks', () => {
  it('reads each block’s sentences in order, across inline markup, once per leaf block', () => {
    const root = document.createElement('div');
    root.innerHTML =
      '<h2>Speed limits</h2><p>Slow down in <strong>school zones</strong>. Children cross without looking!</p>' +
      '<ul><li><p>Stop at the line.</p></li><li>Look both ways</li></ul><p>   </p>';
    const sentences = collectSentences(root, 'en');
    expect(sentences.map((sentence) => sentence.text)).toEqual([
      'Speed limits',
      'Slow down in school zones.',
      'Children cross without looking!',
      'Stop at the line.',
      'Look both ways',
    ]);
    // The range covers the sentence as written, so the highlight sits on it.
    expect(sentences[1]!.range.toString()).toBe('Slow down in school zones.');
  });
});
