import { access, defineRoutes } from '@irp/proto';
import { Controller, Get, INestApplicationContext, Module, ModuleMetadata } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { z } from 'zod';
import { Route } from './route';
import { unboundHandlers } from './unbound-handlers';

const probe = defineRoutes('probe', {
  bound: {
    method: 'GET',
    path: '/bound',
    access: access.public('a probe'),
    summary: 'Bound to its entry',
    response: z.object({ ok: z.literal(true) }),
  },
});

@Controller()
class MixedController {
  @Route(probe.bound)
  bound() {
    return { ok: true as const };
  }

  @Get('forgotten')
  forgotten() {
    return { ok: true };
  }

  /** Not a request handler: not reported. */
  helper() {
    return 1;
  }
}

@Controller()
class BoundController {
  @Route(probe.bound)
  only() {
    return { ok: true as const };
  }
}

@Module({ controllers: [BoundController] })
class InnerModule {}

describe('unboundHandlers', () => {
  const contextOf = async (metadata: ModuleMetadata): Promise<INestApplicationContext> =>
    (await Test.createTestingModule(metadata).compile()).createNestApplication({ logger: false });

  it('reports a handler mapped with a plain @Get() and no @Route as Controller.method', async () => {
    const app = await contextOf({ controllers: [MixedController] });
    try {
      expect(unboundHandlers(app)).toEqual(['MixedController.forgotten']);
    } finally {
      await app.close();
    }
  });

  it('reports nothing when every handler of every module is bound', async () => {
    const app = await contextOf({ imports: [InnerModule] });
    try {
      expect(unboundHandlers(app)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
