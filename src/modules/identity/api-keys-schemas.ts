import { Type } from 'typebox';
import { Id, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';
import { RoleSchema } from './teams-schemas.js';

export const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  role: RoleSchema,
  projects: Type.Array(Type.Integer()),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
}, { $id: 'ApiKey' });

export const ApiKeyWithToken = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  role: RoleSchema,
  projects: Type.Array(Type.Integer()),
  token: Type.String({ description: 'Shown only in this response' }),
  createdAt: Timestamp,
}, { $id: 'ApiKeyWithToken' });

export const NewApiKey = WriteBody({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  role: Type.Optional(RoleSchema),
  projects: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
}, { $id: 'CreateApiKey', answer: [ApiKey, ApiKeyWithToken], ignored: ['team_id'] });

const PersonalKeyFields = {
  id: Type.Integer(),
  name: Type.String(),
  ceiling: Type.Union([RoleSchema, Type.Null()], { description: 'The highest role the key acts with in any team; null: the user\'s own role' }),
  createdAt: Timestamp,
};

export const PersonalKey = Type.Object({ ...PersonalKeyFields, lastUsedAt: Type.Union([Timestamp, Type.Null()]) }, { $id: 'PersonalApiKey' });
export const PersonalKeyWithToken = Type.Object({ ...PersonalKeyFields, token: Type.String({ description: 'Shown only in this response' }) }, { $id: 'PersonalApiKeyWithToken' });
export const NewPersonalKey = WriteBody({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  ceiling: Type.Optional(Type.Union([RoleSchema, Type.Null()])),
}, { $id: 'CreatePersonalApiKey', answer: [PersonalKey, PersonalKeyWithToken] });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const API_KEY_COMPONENTS = [ApiKey, ApiKeyWithToken, NewApiKey, PersonalKey, PersonalKeyWithToken, NewPersonalKey];
