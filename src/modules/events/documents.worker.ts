/**
 * The tasks the events module runs in worker threads (kernel/workers/pool.ts): everything that
 * costs CPU in proportion to what a caller sent or asked for, so that none of it runs on the
 * event loop. Each takes plain data and answers plain data; none does I/O but reading bundled
 * fonts.
 */
import { drawableSignatureUrl, normaliseSignatureDataUrl } from '../../kernel/pdf/signature-png.ts';
import { type BadgePrintItem, renderBadgesPdf } from './badges/badges.pdf.ts';
import { type CertificatePdfData, renderCertificatePdf } from './certificates/certificate.pdf.ts';

/** A certificate's PDF; signatures stored before they were normalised are normalised to draw. */
export function certificatePdf(data: CertificatePdfData): Promise<Uint8Array> {
  return renderCertificatePdf({
    ...data,
    signatures: data.signatures.map((signature) => ({
      ...signature,
      image_url: drawableSignatureUrl(signature.image_url),
    })),
  });
}

/** The printable badges of an edition. */
export function badgesPdf(items: BadgePrintItem[]): Promise<Uint8Array> {
  return renderBadgesPdf(items);
}

/** A signature's PNG data URL normalised (kernel/pdf/signature-png.ts); null when unreadable. */
export function signatureImage(url: string): string | null {
  return normaliseSignatureDataUrl(url);
}
