/**
 * A service process that sends mail (src/modules/mail/sending/sending.reliability.test.ts): the app
 * of `src/main.ts`, configured from the environment, with the tests' simple renderer registered for
 * `signature_request` (the real renderers belong to the modules that own the kinds), without an
 * HTTP listener. Logs `mail sender ready` once its job runner and mail sender run; SIGTERM closes it.
 */
import { buildApp } from '../../src/app.ts';
import { bootstrap } from '../../src/kernel/bootstrap.ts';
import { simpleRenderer } from '../../src/modules/mail/mail.fixtures.ts';

const { config, database, verifier } = await bootstrap();
const app = await buildApp({ config, database, verifier });
app.mailer.registerKind('signature_request', simpleRenderer);
await app.ready();
app.log.info('mail sender ready');
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
