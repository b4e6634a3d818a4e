/** SQL of certificate documents: the PDFs stored once per certificate and version. */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { certificateDocuments } from './certificates.table.ts';

export type DocumentVersion = (typeof certificateDocuments.$inferSelect)['version'];

export interface StoredDocument {
  pdf: Buffer;
  etag: string;
}

export async function findDocument(
  db: Executor,
  certificateId: string,
  version: DocumentVersion,
): Promise<StoredDocument | undefined> {
  const [row] = await db
    .select({ pdf: certificateDocuments.pdf, etag: certificateDocuments.etag })
    .from(certificateDocuments)
    .where(
      and(eq(certificateDocuments.certificate_id, certificateId), eq(certificateDocuments.version, version)),
    )
    .limit(1);
  return row;
}

/**
 * Stores a rendered document and answers the one stored: this one, or the one another process
 * stored first (the primary key refuses a second), so every caller is served the same bytes.
 */
export async function storeDocument(
  db: Executor,
  certificateId: string,
  version: DocumentVersion,
  document: StoredDocument,
): Promise<StoredDocument> {
  const inserted = await db
    .insert(certificateDocuments)
    .values({ certificate_id: certificateId, version, ...document })
    .onConflictDoNothing()
    .returning({ etag: certificateDocuments.etag });
  const stored = inserted.length > 0 ? document : await findDocument(db, certificateId, version);
  if (stored === undefined) throw new Error(`certificate document ${certificateId}/${version} vanished`);
  return stored;
}
