/**
 * LISTEN on a server: notifications from any process reach `onNotify`, across lost connections.
 */
import pg from 'pg';

const RELISTEN_DELAY_MS = 1_000;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries). If it drops, it is
 * re-opened after a second, for as long as the listener is not stopped.
 */
export async function listenPostgres(
  url: string,
  channel: string,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const reconnectLater = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      connect().then(onNotify, reconnectLater);
    }, RELISTEN_DELAY_MS);
  };
  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    // Only a connection that got as far as listening is watched; a failed connect is the caller's.
    const lost = () => {
      if (current !== client) return;
      current = undefined;
      client.end().catch(() => {});
      reconnectLater();
    };
    client.on('error', lost);
    client.on('end', lost);
    current = client;
    if (stopped) await client.end().catch(() => {});
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}
