import { Type, type Static } from 'typebox';
import { Id, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';
import { MASK } from '../../redaction/index.js';

/** Integration types: a webhook, which `slackMode` turns into a Slack incoming webhook. */
export const INTEGRATION_TYPES = ['webhook'] as const;

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: `An absolute http(s) URL, checked against the outbound address policy. Answered as its origin and "${MASK}"; sent back so (or as "${MASK}"), the stored URL stays`,
});

const Config = Type.Object({
  url: Url,
  slackMode: Type.Optional(Type.Boolean({ description: 'A Slack incoming webhook: the alert goes as a Slack message (`{text}`)' })),
});

const ConfigUpdate = Type.Object({
  url: Type.Optional(Url),
  slackMode: Type.Optional(Type.Boolean()),
});

export const Integration = Type.Object({
  id: Type.Integer(),
  team_id: Type.Integer(),
  name: Type.String(),
  type: Type.Enum([...INTEGRATION_TYPES]),
  config: Type.Object({
    url: Type.String({ description: `The URL's origin followed by "${MASK}": its path and query usually hold its credential` }),
    slackMode: Type.Boolean(),
  }),
  webhookSecret: Type.String({
    description: `HMAC-SHA256 key of the \`x-plotline-signature\` header of every delivery; shown only when the integration is created, "${MASK}" afterwards`,
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'Integration' });
export type IntegrationView = Static<typeof Integration>;

const Name = Type.String({ minLength: 1, maxLength: 200 });

/**
 * `team_id` comes from the path (Chartbrew's client also sends it in the body); `type` is
 * `webhook`: Slack app integrations, which need Chartbrew's Slack app, are refused (400).
 */
export const CreateIntegration = WriteBody(
  { name: Name, type: Type.String({ maxLength: 50, description: 'webhook' }), config: Config },
  { $id: 'CreateIntegration', answer: Integration, ignored: ['AlertIntegrations'] },
);
export type CreateIntegrationInput = Static<typeof CreateIntegration>;

/** The type cannot change; `config.url` sent back as answered keeps the stored URL. */
export const UpdateIntegration = WriteBody(
  { name: Type.Optional(Name), type: Type.Optional(Type.String({ maxLength: 50 })), config: Type.Optional(ConfigUpdate) },
  { $id: 'UpdateIntegration', answer: Integration, ignored: ['AlertIntegrations'] },
);
export type UpdateIntegrationInput = Static<typeof UpdateIntegration>;

export const IntegrationParams = Type.Object({ team_id: Id, id: Id });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const INTEGRATION_COMPONENTS = [Integration, CreateIntegration, UpdateIntegration];
