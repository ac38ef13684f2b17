import { useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import type { Video } from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { usePublicConfig } from '../../lib/queries.ts';

type Phase = 'ready' | 'playing' | 'question' | 'outcome';
type Clip = 'start' | 'correct' | 'incorrect';

/**
 * Spec 3: the start clip plays, then the two-answer question, then the clip of the
 * chosen answer. There are no seek controls, so the question cannot be skipped; captions carry
 * what happens (the clips have no sound).
 */
export function InteractiveVideo({ video }: { video: Video }) {
  const { t, i18n } = useTranslation();
  const config = usePublicConfig();
  const ref = useRef<HTMLVideoElement>(null);
  const [phase, setPhase] = useState<Phase>('ready');
  const [clip, setClip] = useState<Clip>('start');
  const [chosen, setChosen] = useState<'correct' | 'incorrect' | null>(null);
  const base = `${config.data?.videoBaseUrl ?? '/videos'}/${video.path}`;
  const captionLanguage = i18n.language === 'es' ? 'es' : 'en';
  // Answers are shown in a stable order that does not give the right one away.
  const options = [
    { key: 'correct' as const, text: video.correctAnswer },
    { key: 'incorrect' as const, text: video.incorrectAnswer },
  ].sort((a, b) => a.text.localeCompare(b.text));

  function play(next: Clip) {
    setClip(next);
    setPhase(next === 'start' ? 'playing' : 'outcome');
    // The source changes with the clip; play once the element has it.
    requestAnimationFrame(() => void ref.current?.play().catch(() => undefined));
  }

  return (
    <section aria-labelledby="video-heading" className="rounded-lg bg-white p-4 shadow sm:p-6">
      <h2 id="video-heading" className="text-xl font-semibold">
        {t('video.heading')}
      </h2>
      <div className="mt-3 overflow-hidden rounded-md bg-slate-900">
        <video
          ref={ref}
          key={`${clip}-${i18n.language}`}
          className="aspect-video w-full"
          playsInline
          preload="metadata"
          onEnded={() => {
            if (clip === 'start') setPhase('question');
          }}
          aria-label={t(`video.clip.${clip}`)}
        >
          <source src={`${base}/${clip}.mp4`} type="video/mp4" />
          <track
            kind="captions"
            src={`${base}/${clip}.${captionLanguage}.vtt`}
            srcLang={captionLanguage}
            label={captionLanguage === 'es' ? t('language.es') : t('language.en')}
            default
          />
        </video>
      </div>
      <div className="mt-4 space-y-3" aria-live="polite">
        {phase === 'ready' && <Button onClick={() => play('start')}>{t('video.play')}</Button>}
        {phase === 'playing' && <p className="text-slate-700">{t('video.watch')}</p>}
        {phase === 'question' && (
          <fieldset className="space-y-3">
            <legend className="font-semibold text-slate-900">{video.question}</legend>
            {options.map((option) => (
              <Button
                key={option.key}
                variant="secondary"
                className="w-full text-left"
                onClick={() => {
                  setChosen(option.key);
                  play(option.key);
                }}
              >
                {option.text}
              </Button>
            ))}
          </fieldset>
        )}
        {phase === 'outcome' && chosen && (
          <>
            <p className={`font-semibold ${chosen === 'correct' ? 'text-green-800' : 'text-red-800'}`}>
              {chosen === 'correct' ? t('video.rightChoice') : t('video.wrongChoice', { answer: video.correctAnswer })}
            </p>
            <Button variant="secondary" onClick={() => play('start')}>
              {t('video.again')}
            </Button>
          </>
        )}
      </div>
    </section>
  );
}
