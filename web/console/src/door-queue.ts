/**
 * The door's scans as this device keeps them until the service has answered each (docs/console.md,
 * "The door"): in IndexedDB, so a scan made with the network down outlives a reload or a closed tab.
 * A scan is written here before it is sent; it leaves once an answer came back (any result, a 409's
 * included). Its `nonce` makes a second upload of the same scan count once, so a scan sent twice
 * (a reload mid-request) is never a second check-in.
 */

export interface QueuedScan {
  nonce: string;
  editionId: string;
  code: string;
  /** The program it was scanned at, or null for the edition itself. */
  programId: string | null;
  /** When it was scanned, on this device's clock: the check-in's time, however late it is sent. */
  scannedAt: string;
}

const DATABASE = 'convene-door';
const STORE = 'scans';

let opened: Promise<IDBDatabase> | undefined;

function database(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(STORE, { keyPath: 'nonce' }).createIndex('edition', 'editionId');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opened = undefined;
      reject(request.error);
    };
  });
  return opened;
}

/** Runs `work` in one transaction on the store; resolves with its request's result once committed. */
async function inStore<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const store = (await database()).transaction(STORE, mode).objectStore(STORE);
  return new Promise((resolve, reject) => {
    const request = work(store);
    store.transaction.oncomplete = () => resolve(request.result);
    store.transaction.onerror = () => reject(store.transaction.error);
    store.transaction.onabort = () => reject(store.transaction.error);
  });
}

export const enqueueScan = (scan: QueuedScan) => inStore('readwrite', (store) => store.put(scan));

export const forgetScan = (nonce: string) => inStore('readwrite', (store) => store.delete(nonce));

/** An edition's scans still to send, oldest first. */
export async function queuedScans(editionId: string): Promise<QueuedScan[]> {
  const scans = await inStore('readonly', (store) => store.index('edition').getAll(editionId));
  return (scans as QueuedScan[]).sort((a, b) => a.scannedAt.localeCompare(b.scannedAt));
}
