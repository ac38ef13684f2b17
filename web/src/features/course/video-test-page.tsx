import { useState } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import { Alert } from '../../components/alert.tsx';
import { usePublicConfig } from '../../lib/queries.ts';

/** Spec 2 /video-test: plays a sample clip and says whether this browser can play the course videos. */
export function VideoTestPage() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const [playable] = useState(
    () => document.createElement('video').canPlayType('video/mp4; codecs="avc1.42E01E"') !== '',
  );
  const src = `${config.data?.videoBaseUrl ?? '/videos'}/sample/sample.mp4`;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t('course.pages.videoTest')}</h1>
      <p className="text-slate-700">{t('video.testIntro')}</p>
      <video
        className="aspect-video w-full max-w-xl rounded-md bg-slate-900"
        src={src}
        controls
        muted
        playsInline
        aria-label={t('video.sample')}
      />
      <Alert tone={playable ? 'success' : 'error'}>{playable ? t('video.canPlay') : t('video.cannotPlay')}</Alert>
    </div>
  );
}
