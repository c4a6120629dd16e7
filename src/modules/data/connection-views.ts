import { can, type Membership } from '../../platform/authorization.js';
import { maskConnectionField, maskValue } from '../../redaction/index.js';
import { isConnectionSubType, type ConnectionType } from '../../sources/index.js';
import type { ConnectionSecrets } from './connection-secrets.js';
import type { ConnectionRecord } from './connections-repository.js';
import type { ConnectionView, SslMode } from './connections-schemas.js';

/** A connection as this member may see it: owners and admins get every field, secrets masked. */
export function connectionView(membership: Membership, record: ConnectionRecord, secrets: ConnectionSecrets): ConnectionView {
  return can(membership, 'connection:readSecrets') ? fullView(record, secrets) : restrictedView(record);
}

/** What project roles see: no secrets and nothing that says where the source is or how to log in. */
export function restrictedView(record: ConnectionRecord): ConnectionView {
  const type = record.type as ConnectionType;
  return {
    id: record.id,
    team_id: record.team_id,
    project_ids: record.project_ids.map(String),
    oauth_id: record.oauth_id,
    name: record.name,
    type,
    subType: isConnectionSubType(record.subType) ? record.subType : type,
    active: record.active,
    srv: record.srv,
    ssl: record.ssl,
    sslMode: record.sslMode as SslMode | null,
    schema: (record.schema ?? null) as ConnectionView['schema'],
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** teamOwner / teamAdmin: every field (in the spec's order), each secret replaced by the placeholder. */
export function fullView(record: ConnectionRecord, secrets: ConnectionSecrets): ConnectionView {
  const plain = secrets.decrypt(record);
  const auth = plain.authentication;
  const base = restrictedView(record);
  return {
    id: base.id,
    team_id: base.team_id,
    project_ids: base.project_ids,
    oauth_id: base.oauth_id,
    name: base.name,
    type: base.type,
    subType: base.subType,
    active: base.active,
    host: plain.host,
    dbName: plain.dbName,
    port: plain.port,
    username: plain.username,
    password: maskValue(plain.password),
    srv: base.srv,
    options: maskConnectionField('options', plain.options) as ConnectionView['options'],
    connectionString: maskConnectionField('connectionString', plain.connectionString) as string | null,
    // Every key of the view is present (null when unset), as the response schema lists them.
    authentication: auth === null ? null : { type: auth.type ?? null, token: maskValue(auth.token), user: auth.user ?? null, pass: maskValue(auth.pass) },
    firebaseServiceAccount: maskConnectionField('firebaseServiceAccount', plain.firebaseServiceAccount) as ConnectionView['firebaseServiceAccount'],
    ssl: base.ssl,
    sslMode: base.sslMode,
    sslCa: record.sslCaName,
    sslCert: record.sslCertName,
    sslKey: record.sslKeyName,
    schema: base.schema,
    createdAt: base.createdAt,
    updatedAt: base.updatedAt,
  };
}
