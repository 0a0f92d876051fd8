import { INestApplicationContext } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ROUTE_KEY } from './route';

/**
 * `Controller.method` of every request handler that is not bound to a route table entry with @Route.
 * The gateway refuses to start with any (createGateway): a route without an access rule never serves.
 */
export function unboundHandlers(app: INestApplicationContext): string[] {
  const unbound: string[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const prototype = wrapper.metatype?.prototype as Record<string, unknown> | undefined;
      if (!prototype) continue;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        if (name === 'constructor') continue;
        const handler = prototype[name];
        if (typeof handler !== 'function') continue;
        const isHandler = Reflect.getMetadata(PATH_METADATA, handler) !== undefined;
        if (isHandler && !Reflect.getMetadata(ROUTE_KEY, handler)) unbound.push(`${wrapper.name}.${name}`);
      }
    }
  }
  return unbound.sort();
}
