import { SerializerSelector, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';
import type { Ajv, ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

/*
 * Route schemas are compiled on a route's first request rather than all at boot. About a hundred
 * routes, each with params, a body and a response schema per status, compiled up front held some
 * 25 MB from start-up in a process that may only ever serve a few of them. The compilers and their
 * options are the ones Fastify would use; only the moment of compiling moves, and one compiled
 * function serves every route that shares a schema object (the error shape is on every route).
 */

type Validator = ((data: unknown, dataCxt?: unknown) => boolean) & { errors?: ValidateFunction['errors']; schemaEnv?: unknown };

/** Validators compiled by `ajvFor(httpPart)` on first use (Ajv itself caches per schema object). */
export function lazyValidatorCompiler(ajvFor: (httpPart: string | undefined) => Ajv): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    let compiled: ValidateFunction | undefined;
    const validate: Validator = (data, dataCxt) => {
      compiled ??= ajvFor(httpPart).compile(schema as object);
      const valid = compiled(data, dataCxt as Parameters<ValidateFunction>[1]);
      validate.errors = compiled.errors;
      return valid;
    };
    // Fastify hands an Ajv validator (one with `schemaEnv`) the request as the parent of the value,
    // so that coercion can replace a whole request part; so does this one, on its compiled validator's behalf.
    validate.schemaEnv = true;
    return validate;
  };
}

/** Fastify's own response serializer factory (fast-json-stringify), compiling on first use. */
export function lazySerializerFactory(): SerializerFactory {
  const buildCompiler = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = buildCompiler(externalSchemas, options);
    const bySchema = new WeakMap<object, Serializer>();
    return (route) => {
      const key = typeof route.schema === 'object' && route.schema !== null ? route.schema : undefined;
      const known = key && bySchema.get(key);
      if (known) return known;
      let compiled: Serializer | undefined;
      const serialize: Serializer = (data) => (compiled ??= compile(route))(data);
      if (key) bySchema.set(key, serialize);
      return serialize;
    };
  };
}

/**
 * A serializer for `schema` outside any route, by the compiler and options Fastify uses for route
 * responses (so the bytes are the ones a route would send), compiled on first use: for parts of a
 * response serialized ahead of the reply and kept. `shared` holds the named schemas (with an `$id`)
 * that its `$ref`s reach, as the app's shared schemas do for routes.
 */
export function lazySerializer<T>(schema: object, shared: readonly object[] = []): (value: T) => string {
  const external = Object.fromEntries(shared.map((named) => [(named as { $id: string }).$id, named]));
  return lazySerializerFactory()(external, undefined)({ schema, method: 'GET', url: '', httpStatus: '200' });
}
