// The code shape of issue 32 (scripts/code-shape.mjs) on this tree, and on a made-up tree that breaks it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { codeShapeProblems, productionFiles } from '../code-shape.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('code shape', () => {
  it('this tree: no long *.service.ts, no production file over 400 lines, no hand-written row type', () => {
    assert.deepEqual(codeShapeProblems(ROOT), []);
  });

  it('a tree that breaks each rule is told so, file by file; tests, migrations and row-free files are not', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-shape-'));
    const write = (rel, text) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    };
    const lines = (n) => Array.from({ length: n }, (_, i) => `const a${i} = ${i};`).join('\n') + '\n';
    try {
      write('services/shop/src/orders/orders.service.ts', lines(201));
      write('services/shop/src/orders/save-order.ts', lines(200));
      write('services/shop/src/orders/orders.repository.ts', lines(401));
      write(
        'services/shop/src/orders/rows.ts',
        'export interface RawOrder {}\ntype OrderRow = { id: string };\ntype OrderEntityRow = Pick<OrderEntity, "id">;\n',
      );
      write('services/shop/src/orders/orders.spec.ts', lines(900));
      write('services/shop/src/database/migrations/1-Create.ts', lines(900));
      write('services/shop/test/big.int-spec.ts', lines(900));
      write('web/src/features/orders/OrdersPage.tsx', lines(401));
      write('web/src/features/orders/OrdersPage.test.tsx', lines(900));
      assert.deepEqual(productionFiles(root), [
        'services/shop/src/orders/orders.repository.ts',
        'services/shop/src/orders/orders.service.ts',
        'services/shop/src/orders/rows.ts',
        'services/shop/src/orders/save-order.ts',
        'web/src/features/orders/OrdersPage.tsx',
      ]);
      assert.deepEqual(codeShapeProblems(root), [
        'services/shop/src/orders/orders.repository.ts: 401 lines, over 400',
        'services/shop/src/orders/orders.service.ts: 201 lines, over 200 for a *.service.ts (a use case per file)',
        'services/shop/src/orders/rows.ts:1: RawOrder is a hand-written row type (type rows from entities: docs/adr/0012)',
        'services/shop/src/orders/rows.ts:2: OrderRow is a hand-written row type (type rows from entities: docs/adr/0012)',
        'web/src/features/orders/OrdersPage.tsx: 401 lines, over 400',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
