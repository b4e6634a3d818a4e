/**
 * pg corks the socket around an extended-protocol query (parse, bind, describe, execute, sync), so
 * its messages leave in one write. The service once wrapped a private method of pg's Connection to get
 * this; since pg 8.12 pg does it itself, and this test fails if an upgrade stops doing so (the
 * benchmark found a quarter of the service's CPU in per-message writes).
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../../../test/database.ts';

const skip = TEST_DATABASE_URL ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL';

describe('socket writes per query', { skip }, () => {
  it('sends a query with parameters in one write', async () => {
    let writes = 0;
    const client = new pg.Client({
      connectionString: TEST_DATABASE_URL,
      // pg's public `stream` option; `_write` and `_writev` are the stream implementation's hooks
      // (one call each is one system call on an idle socket).
      stream: () => {
        const socket = new net.Socket();
        const one = socket._write.bind(socket);
        socket._write = (...args) => {
          writes += 1;
          one(...args);
        };
        const many = socket._writev?.bind(socket);
        socket._writev = (...args) => {
          writes += 1;
          many?.(...args);
        };
        return socket;
      },
    });
    await client.connect();
    try {
      for (const name of [undefined, 'write_probe']) {
        const before = writes;
        const result = await client.query({ name, text: 'select $1::int as n', values: [7] });
        assert.equal(result.rows[0].n, 7);
        assert.equal(writes - before, 1, `one write for ${name ?? 'an unnamed'} statement`);
      }
    } finally {
      await client.end();
    }
  });
});
