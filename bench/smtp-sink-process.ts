/**
 * The mail suite's SMTP server (test/smtp-sink.ts, messages counted, not parsed) in a process of
 * its own. In the bench's process, it read each mail's SMTP exchange on the same event loop that
 * sends the registrations and reads their answers, so a burst of mail arriving made the answers
 * look late: the client's delay, counted as the service's (docs/mail.md, "Figures"). In its own
 * process it still shares the machine's cores, as a mail server on the same host would.
 *
 * Run with `child` as its argument, it is that process: it sends its URL once listening, then the
 * count of accepted messages, at most every COUNT_INTERVAL_MS, over the IPC channel.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spawnInGroup } from '../test/processes.ts';
import { startSmtpSink } from '../test/smtp-sink.ts';
import { stopChild } from './lib.ts';

/** How often the child reports its count while mail arrives. */
const COUNT_INTERVAL_MS = 2;

export interface SinkProcess {
  url: string;
  /** Messages accepted so far (as last reported, at most COUNT_INTERVAL_MS old). */
  accepted(): number;
  close(): Promise<void>;
}

type SinkMessage = { url: string } | { accepted: number };

/** Starts the sink process; resolves once it listens. */
export async function startSinkProcess(): Promise<SinkProcess> {
  const child: ChildProcess = spawnInGroup(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), 'child'],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: process.env },
  );
  let accepted = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the SMTP sink exited (${code}) while starting`)));
    child.on('message', (message: SinkMessage) => {
      if ('url' in message) resolve(message.url);
      else accepted = message.accepted;
    });
  });
  return { url, accepted: () => accepted, close: () => stopChild(child) };
}

async function child(): Promise<void> {
  const sink = await startSmtpSink({ parse: false });
  // Polled rather than sent on each acceptance: one message per interval while mail arrives.
  let reported = 0;
  setInterval(() => {
    if (sink.accepted() === reported) return;
    reported = sink.accepted();
    process.send?.({ accepted: reported });
  }, COUNT_INTERVAL_MS);
  process.send?.({ url: sink.url });
  process.on('SIGTERM', () => void sink.close().then(() => process.exit(0)));
}

if (process.argv[2] === 'child') await child();
