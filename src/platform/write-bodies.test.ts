import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { IGNORED_KEYS_KEYWORD, WriteBody } from './write-bodies.js';

describe('WriteBody', () => {
  const Answer = Type.Object({ id: Type.Integer(), name: Type.String(), Children: Type.Array(Type.Unknown()), createdAt: Type.String() });

  it("lists the answer's keys that are not writable, and the Chartbrew ones, as read-only; nothing else is allowed", () => {
    const body = WriteBody({ name: Type.Optional(Type.String()) }, { $id: 'X', answer: Answer, ignored: ['legacy'] });
    expect(Reflect.get(body, IGNORED_KEYS_KEYWORD)).toEqual(['Children', 'createdAt', 'id', 'legacy']);
    expect(Reflect.get(body, 'additionalProperties')).toBe(false);
    expect(body.properties.name).toEqual({ type: 'string' });
    expect(Reflect.get(body.properties, 'id')).toMatchObject({ readOnly: true });
    expect(body.required ?? []).toEqual([]);
  });

  it('leaves the writable fields it is given alone, so that two bodies may share them', () => {
    const fields = { name: Type.Optional(Type.String()) };
    WriteBody(fields, { $id: 'A', answer: Answer });
    const second = WriteBody(fields, { $id: 'B', answer: Answer });
    expect(Object.keys(fields)).toEqual(['name']);
    expect(second.required ?? []).toEqual([]);
  });
});
