/**
 * The door's camera (docs/console.md, "The door"): reads badge QR codes continuously and hands each
 * new one to the door, as if it had been typed. The browser's `BarcodeDetector` decodes where it has
 * one that reads QR codes (Android, ChromeOS, macOS); elsewhere jsQR does, loaded only when the
 * camera starts, so the first screen's script stays small. A code still in front of the camera is
 * read once; shown again after a pause, it is read again (and answered "Already checked in").
 *
 * Browsers give the camera only to a secure context (HTTPS, or loopback): elsewhere the button is
 * not offered, and the screen says why.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useI18n } from '../i18n.tsx';

/** How often a frame is decoded. */
const EVERY_MS = 120;
/** A code out of sight this long is read again when it comes back. */
const AGAIN_AFTER_MS = 3_000;
/** Frames are decoded at this width at most: enough for a badge held up, and quick on a phone. */
const DECODE_WIDTH = 640;

type Decode = (video: HTMLVideoElement) => Promise<string | null>;

interface DetectorLike {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
interface DetectorClass {
  new (options: { formats: string[] }): DetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

/** The browser's detector where it reads QR codes, else jsQR on the frame's pixels. */
async function decoder(): Promise<Decode> {
  const Detector = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (Detector !== undefined && (await Detector.getSupportedFormats()).includes('qr_code')) {
    const detector = new Detector({ formats: ['qr_code'] });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  }
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return async (video) => {
    if (context === null) return null;
    const scale = Math.min(1, DECODE_WIDTH / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const frame = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'dontInvert' })?.data ?? null;
  };
}

export function Camera({ onCode }: { onCode: (code: string) => void }) {
  const { t } = useI18n();
  const [on, setOn] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  // The latest handler, without restarting the camera when the screen re-renders.
  const handler = useRef(onCode);
  handler.current = onCode;

  useEffect(() => {
    if (!on) return undefined;
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: number | undefined;
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment' },
          audio: false,
        });
        const element = video.current;
        if (stopped || element === null) return;
        element.srcObject = stream;
        await element.play();
        const decode = await decoder();
        let last = '';
        let seenAt = 0;
        const tick = async () => {
          if (stopped) return;
          const code = element.videoWidth > 0 ? await decode(element).catch(() => null) : null;
          if (code !== null && code !== '') {
            if (code !== last || Date.now() - seenAt > AGAIN_AFTER_MS) handler.current(code);
            last = code;
            seenAt = Date.now();
          }
          timer = window.setTimeout(() => void tick(), EVERY_MS);
        };
        void tick();
      } catch (error) {
        if (stopped) return;
        setFailed(
          error instanceof Error && error.name === 'NotAllowedError' ? t('cameraRefused') : t('cameraFailed'),
        );
        setOn(false);
      }
    })();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [on, t]);

  if (navigator.mediaDevices?.getUserMedia === undefined) {
    return <p class="hint">{t('cameraNeedsHttps')}</p>;
  }
  return (
    <div class="scan-camera">
      <button type="button" class="secondary" aria-pressed={on} onClick={() => setOn((was) => !was)}>
        {on ? t('cameraStop') : t('cameraStart')}
      </button>
      {failed !== null && !on ? (
        <p class="notice notice-error" role="alert">
          {failed}
        </p>
      ) : null}
      {on ? <video ref={video} muted playsInline aria-label={t('cameraView')} /> : null}
    </div>
  );
}
