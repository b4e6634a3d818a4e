/**
 * `scripts/check-feature-cycles.ts` (part of `npm run check:cycles`, ARCHITECTURE.md rule 16):
 * shown on made-up file graphs that it finds a cycle between two feature folders that madge's
 * file-level check cannot see, names the imports that close it, and leaves tests, fixtures, the
 * kernel and a folder's own files out; and that it finds a feature imported past its index.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { folderCycles, nodeOf, surfaceBypasses } from '../scripts/check-feature-cycles.ts';

describe('cycles between feature folders', () => {
  it('finds two folders importing each other through different files (no file cycle)', () => {
    const cycles = folderCycles({
      'modules/events/badges/badges.service.ts': ['modules/events/registrations/index.ts'],
      'modules/events/registrations/index.ts': ['modules/events/registrations/registrations.service.ts'],
      'modules/events/registrations/registrations.service.ts': ['modules/events/badges/badges.emission.ts'],
      'modules/events/badges/badges.emission.ts': [],
    });
    assert.deepEqual(cycles, [
      {
        nodes: ['events/badges/', 'events/registrations/'],
        imports: [
          'modules/events/badges/badges.service.ts -> modules/events/registrations/index.ts',
          'modules/events/registrations/registrations.service.ts -> modules/events/badges/badges.emission.ts',
        ],
      },
    ]);
  });

  it("counts a module's root file as a node of its own", () => {
    const cycles = folderCycles({
      'modules/events/access.ts': ['modules/events/editions/editions.repository.ts'],
      'modules/events/editions/editions.service.ts': ['modules/events/access.ts'],
      'modules/events/editions/editions.repository.ts': [],
    });
    assert.deepEqual(
      cycles.map((cycle) => cycle.nodes),
      [['events/access.ts', 'events/editions/']],
    );
  });

  it('passes a layered graph, and ignores tests, fixtures, the kernel and imports inside a folder', () => {
    const cycles = folderCycles({
      'modules/events/index.ts': ['modules/events/badges/index.ts', 'modules/events/registrations/index.ts'],
      'modules/events/badges/index.ts': ['modules/events/badges/badges.service.ts'],
      'modules/events/badges/badges.service.ts': [
        'modules/events/registrations/index.ts',
        'kernel/db/client.ts',
      ],
      'modules/events/registrations/index.ts': ['modules/events/registrations/registrations.service.ts'],
      'modules/events/registrations/registrations.service.ts': ['kernel/db/client.ts'],
      'modules/events/registrations/registrations.test.ts': ['modules/events/badges/index.ts'],
      'modules/events/registrations/registrations.fixtures.ts': ['modules/events/badges/index.ts'],
      'kernel/db/client.ts': [],
    });
    assert.deepEqual(cycles, []);
    assert.equal(nodeOf('kernel/db/client.ts'), null);
    assert.equal(nodeOf('modules/payments/webhooks/delivery/outbox.ts'), 'payments/webhooks/');
  });

  it("finds an import of another feature's file past its index.ts, and lets tables and worker tasks by", () => {
    const bypasses = surfaceBypasses({
      'modules/events/badges/badges.service.ts': [
        'modules/events/registrations/registrations.service.ts',
        'modules/events/registrations/index.ts',
        'modules/events/badges/badges.repository.ts',
        'kernel/db/client.ts',
      ],
      'modules/events/badges/badges.table.ts': ['modules/events/registrations/registrations.table.ts'],
      'modules/events/documents.worker.ts': ['modules/events/badges/badges.pdf.ts'],
      'modules/events/index.ts': ['modules/events/badges/index.ts'],
      'modules/payments/webhooks/delivery/delivery.worker.ts': [
        'modules/payments/webhooks/endpoints/index.ts',
      ],
      'modules/payments/webhooks/delivery/deliveries.service.ts': [
        'modules/payments/webhooks/endpoints/endpoints.repository.ts',
        'modules/payments/intents/intents.repository.ts',
      ],
      'modules/events/badges/badges.test.ts': ['modules/events/registrations/registrations.repository.ts'],
    });
    assert.deepEqual(bypasses, [
      'modules/events/badges/badges.service.ts -> modules/events/registrations/registrations.service.ts',
      'modules/payments/webhooks/delivery/deliveries.service.ts -> modules/payments/intents/intents.repository.ts',
    ]);
  });
});
