/**
 * A child that never becomes ready (test/processes.test.ts): it starts a process of its own, in its
 * process group, as npm or a tsx wrapper would, says `started`, and waits forever.
 */
import { spawn } from 'node:child_process';

spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
setInterval(() => {}, 60_000);
process.stdout.write('started\n');
