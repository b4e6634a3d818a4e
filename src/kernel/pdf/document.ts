/** What every PDF document shares: its options, its output stream collected into one Buffer. */

/**
 * pdfkit document options for drawing with the embedded fonts only (kernel/pdf/fonts.ts): no
 * default standard font, whose metrics pdfkit would otherwise parse for every document.
 */
export const EMBEDDED_FONTS_ONLY = { font: '' } as const;

/**
 * Resolves with the whole file once `doc.end()` has been called and pdfkit has written the last
 * byte (it may wait for images it decodes asynchronously); rejects on a stream error. Call it
 * before drawing so no chunk is missed.
 */
export function collectPdf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
