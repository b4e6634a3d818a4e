/**
 * A video for Chromium's fake camera (`--use-fake-device-for-media-stream
 * --use-file-for-fake-video-capture=<file>`): each text as a QR code held in front of the camera
 * for a while, then an empty frame between two codes, the whole looped by Chromium. Written as
 * Y4M (uncompressed YUV 4:2:0), which Chromium reads without a codec: the code black on white in
 * the luma plane, the chroma planes neutral.
 */
import { writeFileSync } from 'node:fs';
import { qrMatrix } from '../src/kernel/pdf/qr.ts';

export interface QrVideo {
  width?: number;
  height?: number;
  fps?: number;
  /** Frames each code stays in view. */
  framesPerCode?: number;
  /** Empty frames after each code. */
  blankFrames?: number;
}

const WHITE = 235;
const BLACK = 16;

/** The luma plane of one frame showing `text`'s QR code centred, quiet zone included. */
function qrFrame(text: string, width: number, height: number): Buffer {
  const luma = Buffer.alloc(width * height, WHITE);
  const matrix = qrMatrix(text);
  if (matrix === null) throw new Error(`no QR code for ${text}`);
  const modules = matrix.length + 8;
  const size = Math.floor(Math.min(width, height) / modules);
  if (size < 2) throw new Error(`${text} needs a larger frame than ${width}x${height}`);
  const left = Math.floor((width - matrix.length * size) / 2);
  const top = Math.floor((height - matrix.length * size) / 2);
  for (const [r, row] of matrix.entries()) {
    for (const [c, dark] of row.entries()) {
      if (!dark) continue;
      for (let y = 0; y < size; y += 1) {
        const at = (top + r * size + y) * width + left + c * size;
        luma.fill(BLACK, at, at + size);
      }
    }
  }
  return luma;
}

/** Writes the video of `texts` to `path`. */
export function writeQrVideo(path: string, texts: string[], options: QrVideo = {}): void {
  const { width = 480, height = 360, fps = 10, framesPerCode = 12, blankFrames = 8 } = options;
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const blank = Buffer.concat([Buffer.alloc(width * height, WHITE), chroma]);
  const frame = Buffer.from('FRAME\n');
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`)];
  for (const text of texts) {
    const showing = Buffer.concat([qrFrame(text, width, height), chroma]);
    for (let index = 0; index < framesPerCode; index += 1) parts.push(frame, showing);
    for (let index = 0; index < blankFrames; index += 1) parts.push(frame, blank);
  }
  writeFileSync(path, Buffer.concat(parts));
}
