/**
 * What a person starting the service reads (ARCHITECTURE.md, "Start-up and shutdown"): one plain
 * line on stderr per phase, then a ready banner with the URL, the API reference and how to get a
 * token. Plain text, not JSON, and always: the JSON logs stay on stdout for machines; these lines
 * are for whoever watches a start, on a terminal or in a container's log, and a start that hangs
 * shows the phase it hangs in. Also the port reservation, so a busy port is refused before
 * anything else starts.
 */
import { createServer, type Server } from 'node:net';

export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`port ${port} is in use: set PORT or stop the other process`);
    this.name = 'PortInUseError';
  }
}

/** Start-up progress for `program` ("convene", "convene worker"), timed from `startedAt`. */
export function startProgress(program: string, startedAt = performance.now()) {
  const seconds = () => ((performance.now() - startedAt) / 1000).toFixed(1);
  return {
    /** One line as a phase begins. */
    phase(text: string): void {
      process.stderr.write(`${program}: ${text}\n`);
    },
    /** Seconds since the start, one decimal. */
    elapsed: seconds,
  };
}

export type StartProgress = ReturnType<typeof startProgress>;

/**
 * Binds `host:port` with a plain server and holds it until `release()`: the port is known to be
 * free before the database opens (two services on one DATA_DIR would share an embedded database
 * otherwise) and nobody takes it while the service starts. Port 0 (any free port) needs no
 * reservation. Rejects with PortInUseError when the port is taken.
 */
export async function reservePort(host: string, port: number): Promise<{ release(): Promise<void> }> {
  if (port === 0) return { release: async () => {} };
  // A client that connects meanwhile (a script polling /health) is dropped at once: an open
  // connection would hold close() below, and the start with it.
  const server: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port) : error),
    );
    server.listen({ host, port, exclusive: true }, resolve);
  });
  return {
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The URL a person opens for a listening address: a wildcard host is reached through localhost. */
export function humanUrl(address: { address: string; port: number; family: string }): string {
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? 'localhost'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}`;
}

/** The ready banner: where it listens, the API reference, and how to get a token. */
export function readyBanner(options: {
  url: string;
  seconds: string;
  database: string;
  /** The service trusts the development key pair in DATA_DIR (`npm run token` signs with it). */
  usesDevKeys: boolean;
}): string {
  const lines = [
    `convene is ready in ${options.seconds} s (${options.database})`,
    `  API          ${options.url}`,
    `  reference    ${options.url}/docs`,
    `  console      ${options.url}/console`,
    options.usesDevKeys
      ? `  a token      npm run token -- --email you@example.com   (in another terminal, same DATA_DIR)`
      : '  tokens       signed by your identity service (the AUTH_* settings)',
    `  try          curl -H "authorization: Bearer <token>" ${options.url}/events/mine`,
  ];
  return `${lines.join('\n')}\n`;
}
