import { Type, type Static } from 'typebox';
import { Id, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';

/** Same bound as a data request's query text. */
const MAX_QUERY_TEXT = 262_144;

export const SavedQuery = Type.Object({
  id: Type.Integer(),
  team_id: Type.Integer(),
  user_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Who saved it; null once that user is gone' }),
  summary: Type.Union([Type.String(), Type.Null()]),
  query: Type.Union([Type.String(), Type.Null()]),
  type: Type.Union([Type.String(), Type.Null()], { description: 'The connection type it is written for (`postgres`, `mysql`, `mongodb`…)' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  User: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()], { description: 'Who saved it' }),
}, { $id: 'SavedQuery' });
export type SavedQueryView = Static<typeof SavedQuery>;

const fields = {
  summary: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  query: Type.Optional(Type.Union([Type.String({ maxLength: MAX_QUERY_TEXT }), Type.Null()])),
  type: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
};

/** `team_id` and `user_id` come from the path and the caller; Chartbrew's client sends them too. */
export const CreateSavedQuery = WriteBody(fields, { $id: 'CreateSavedQuery', answer: SavedQuery });
export const UpdateSavedQuery = WriteBody(fields, { $id: 'UpdateSavedQuery', answer: SavedQuery });
export type SavedQueryInput = Static<typeof CreateSavedQuery>;

export const SavedQueryParams = Type.Object({ team_id: Id, id: Id });
export const SavedQueryListQuery = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 100, description: 'Only the saved queries of this connection type' })),
});

/** Published under `components.schemas` (src/openapi-components.ts). */
export const SAVED_QUERY_COMPONENTS = [SavedQuery, CreateSavedQuery, UpdateSavedQuery];
