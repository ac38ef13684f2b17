import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { useTranslation } from '../../lib/i18n.ts';

/**
 * Read aloud (decision 021): a module's text spoken by the browser's own voices (Web Speech API) in
 * the page's language, for a student who reads English or Spanish with difficulty. It is spoken
 * a sentence at a time, so the sentence being read can be highlighted (CSS Custom Highlight API)
 * and kept in view, and Pause, Resume, Stop and the speed act at once. Where the browser has no
 * speech, or no voice for the language, nothing shows.
 */

const RATES = [0.75, 1, 1.25, 1.5] as const;
const HIGHLIGHT = 'read-aloud';
/** The elements whose text is read, each as one block (a paragraph, an item, a heading). */
const BLOCKS = 'h2, h3, h4, p, li, td, th, figcaption, blockquote';

interface Sentence {
  text: string;
  range: Range;
  block: Element;
}

const speechLocale = (language: string) => (language.startsWith('es') ? 'es-US' : 'en-US');

/** The sentences of the text under `root`, block by block, each with the Range it covers. */
export function collectSentences(root: Element, language: string): Sentence[] {
  const segmenter =
    typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(language, { granularity: 'sentence' }) : null;
  const sentences: Sentence[] = [];
  // Leaf blocks only: an item holding a paragraph is read once, as its paragraph.
  const blocks = [...root.querySelectorAll(BLOCKS)].filter((block) => !block.querySelector(BLOCKS));
  for (const block of blocks) {
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
    const text = nodes.map((node) => node.data).join('');
    // Where in the text nodes a character of the block's text is.
    const at = (offset: number): [Text, number] => {
      let rest = offset;
      for (const node of nodes) {
        if (rest <= node.length) return [node, rest];
        rest -= node.length;
      }
      const last = nodes[nodes.length - 1]!;
      return [last, last.length];
    };
    const segments = segmenter ? [...segmenter.segment(text)] : [{ segment: text, index: 0 }];
    for (const { segment, index } of segments) {
      const trimmed = segment.trim();
      if (!/[\p{L}\p{N}]/u.test(trimmed)) continue;
      const start = index + segment.indexOf(trimmed);
      const range = document.createRange();
      range.setStart(...at(start));
      range.setEnd(...at(start + trimmed.length));
      sentences.push({ text: trimmed.replace(/\s+/g, ' '), range, block });
    }
  }
  return sentences;
}

function subscribeToVoices(onChange: () => void): () => void {
  if (!('speechSynthesis' in window)) return () => undefined;
  window.speechSynthesis.addEventListener('voiceschanged', onChange);
  return () => window.speechSynthesis.removeEventListener('voiceschanged', onChange);
}

/** A voice of the language (the browser's default one first), or null: voices may arrive late. */
function useVoice(language: string): SpeechSynthesisVoice | null {
  const prefix = language.slice(0, 2).toLowerCase();
  return useSyncExternalStore(
    subscribeToVoices,
    () => {
      if (!('speechSynthesis' in window)) return null;
      const voices = window.speechSynthesis.getVoices().filter((voice) => voice.lang.toLowerCase().startsWith(prefix));
      return voices.find((voice) => voice.default) ?? voices[0] ?? null;
    },
    () => null,
  );
}

function setHighlight(range: Range | null): void {
  if (typeof CSS === 'undefined' || !('highlights' in CSS) || typeof Highlight === 'undefined') return;
  if (range) CSS.highlights.set(HIGHLIGHT, new Highlight(range));
  else CSS.highlights.delete(HIGHLIGHT);
}

/** Keeps the sentence being read in view, without moving a page the reader is already looking at. */
function keepInView(block: Element): void {
  const box = block.getBoundingClientRect();
  if (box.top < 80 || box.bottom > window.innerHeight) block.scrollIntoView({ block: 'center', behavior: 'smooth' });
}

type PlayState = 'stopped' | 'playing' | 'paused';

export function ReadAloud({ target, contentKey }: { target: RefObject<HTMLElement | null>; contentKey: unknown }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const voice = useVoice(language);
  const [state, setState] = useState<PlayState>('stopped');
  const [rate, setRate] = useState<number>(1);
  const sentences = useRef<Sentence[]>([]);
  const current = useRef(0);
  // Each utterance belongs to one run; one cancelled (Stop, a new speed) must not go on to the next.
  const run = useRef(0);

  const stop = useCallback(() => {
    run.current += 1;
    if ('speechSynthesis' in window) window.speechSynthesis.cancel();
    setHighlight(null);
    setState('stopped');
  }, []);

  // A new module, a new language or leaving the page ends the reading.
  useEffect(() => stop, [contentKey, language, stop]);

  if (!voice) return null;
  const chosenVoice = voice;

  /** Speaks sentence `index`, then the next, until the end, a Stop or a new speed. */
  function speakFrom(index: number, speed: number) {
    const sentence = sentences.current[index];
    if (!sentence) {
      stop();
      return;
    }
    run.current += 1;
    const thisRun = run.current;
    current.current = index;
    const synth = window.speechSynthesis;
    synth.cancel();
    const utterance = new SpeechSynthesisUtterance(sentence.text);
    utterance.lang = speechLocale(language);
    utterance.voice = chosenVoice;
    utterance.rate = speed;
    utterance.onstart = () => {
      if (run.current !== thisRun) return;
      setHighlight(sentence.range);
      keepInView(sentence.block);
    };
    utterance.onend = () => {
      if (run.current === thisRun) speakFrom(index + 1, speed);
    };
    synth.speak(utterance);
    setState('playing');
  }
  function play() {
    if (!target.current) return;
    sentences.current = collectSentences(target.current, language);
    speakFrom(0, rate);
  }

  function changeRate(next: number) {
    setRate(next);
    // The sentence being read starts again at the new speed.
    if (state !== 'stopped') speakFrom(current.current, next);
  }

  return (
    <div
      role="group"
      aria-label={t('readAloud.label')}
      className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white p-3"
    >
      {state === 'stopped' && (
        <button type="button" className={CONTROL} onClick={play}>
          <span aria-hidden="true">▶ </span>
          {t('readAloud.play')}
        </button>
      )}
      {state === 'playing' && (
        <button
          type="button"
          className={CONTROL}
          onClick={() => {
            window.speechSynthesis.pause();
            setState('paused');
          }}
        >
          {t('readAloud.pause')}
        </button>
      )}
      {state === 'paused' && (
        <button
          type="button"
          className={CONTROL}
          onClick={() => {
            window.speechSynthesis.resume();
            setState('playing');
          }}
        >
          {t('readAloud.resume')}
        </button>
      )}
      {state !== 'stopped' && (
        <button type="button" className={CONTROL} onClick={stop}>
          {t('readAloud.stop')}
        </button>
      )}
      <label className="ml-auto flex items-center gap-2 text-sm text-slate-800">
        {t('readAloud.speed')}
        <select
          value={rate}
          onChange={(event) => changeRate(Number(event.target.value))}
          className="rounded-md border border-slate-300 px-2 py-1"
        >
          {RATES.map((option) => (
            <option key={option} value={option}>
              {new Intl.NumberFormat(language).format(option)}×
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

const CONTROL =
  'rounded-md border border-blue-800 px-3 py-1.5 text-sm font-semibold text-blue-900 hover:bg-blue-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700';
