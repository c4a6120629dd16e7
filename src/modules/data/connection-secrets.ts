import type { Static } from 'typebox';
import type { SecretBox } from '../../crypto/secrets.js';
import { ValidationError } from '../../errors/index.js';
import { CONNECTION_SECRET_FIELDS, MASK, type ConnectionSecretField, MaskWithoutValue, restoreConnectionString, restoreTree } from '../../redaction/index.js';
import { isConnectionSubType, type ConnectionSubType, type ConnectionType } from '../../sources/index.js';
import type { ConnectionRecord, ConnectionWrite } from './connections-repository.js';
import type { AuthenticationInput, ConnectionUpdateBody, NewConnectionBody, SslMode } from './connections-schemas.js';

/** Credentials of an API connection as written and stored (decrypted): the body schema. */
export type Authentication = Static<typeof AuthenticationInput>;

/** What each secret column holds once decrypted. */
interface DecryptedValues {
  password: string | null;
  /** Object or array, as the client wrote it (API global headers, driver options). */
  options: unknown;
  connectionString: string | null;
  authentication: Authentication | null;
  firebaseServiceAccount: Record<string, unknown> | null;
  /** PEM contents of the uploaded key (the certificates are not secret). */
  sslKey: string | null;
}

/** Indexing by the field list makes a secret column without a decrypted type a compile error. */
type DecryptedSecrets = { [F in ConnectionSecretField]: DecryptedValues[F] };

/**
 * A connection with every secret decrypted, for the code that talks to the data source: the stored
 * record with its secret columns replaced and its kinds narrowed. Never serialize it into a
 * response or a log line.
 */
export type RunnableConnection = Omit<ConnectionRecord, ConnectionSecretField | 'type' | 'subType' | 'sslMode'> &
  DecryptedSecrets & {
    type: ConnectionType;
    subType: ConnectionSubType;
    sslMode: SslMode | null;
  };

/**
 * The secrets of connections, and only them: decrypts a stored connection for the code that talks
 * to its source, and turns the secret fields of a body into envelopes (a field sent back as the
 * mask keeps its stored value). Plaintext never leaves this class but as a RunnableConnection.
 */
export class ConnectionSecrets {
  constructor(private readonly box: SecretBox) {}

  decrypt(record: ConnectionRecord): RunnableConnection {
    const type = record.type as ConnectionType;
    // Typed on its own so that every secret column must be decrypted here, not carried over by the spread.
    const secrets: DecryptedSecrets = {
      password: this.box.decryptNullable(record.password),
      options: this.decryptJson<unknown>(record.options),
      connectionString: this.box.decryptNullable(record.connectionString),
      authentication: this.decryptJson<Authentication>(record.authentication),
      firebaseServiceAccount: this.decryptJson<Record<string, unknown>>(record.firebaseServiceAccount),
      sslKey: this.box.decryptNullable(record.sslKey),
    };
    return {
      ...record,
      ...secrets,
      type,
      subType: isConnectionSubType(record.subType) ? record.subType : type,
      sslMode: record.sslMode as SslMode | null,
    };
  }

  /** The secret fields of a create or update body, as envelopes; `stored` is the decrypted connection an update changes. */
  secretWrite(body: NewConnectionBody | ConnectionUpdateBody, stored: RunnableConnection | undefined): ConnectionWrite {
    const write: ConnectionWrite = {};
    try {
      if (body.password !== undefined) {
        write.password = body.password === MASK ? this.keep(stored?.password, 'body.password') : body.password;
      }
      if (body.connectionString !== undefined) {
        write.connectionString =
          body.connectionString === null ? null : restoreConnectionString(body.connectionString, stored?.connectionString ?? null, 'body.connectionString');
      }
      if (body.authentication !== undefined) write.authentication = body.authentication === null ? null : JSON.stringify(this.restoreAuth(body.authentication, stored?.authentication ?? null));
      if (body.firebaseServiceAccount !== undefined) {
        write.firebaseServiceAccount =
          body.firebaseServiceAccount === null
            ? null
            : JSON.stringify(restoreTree(body.firebaseServiceAccount, stored?.firebaseServiceAccount ?? null, 'body.firebaseServiceAccount'));
      }
      if (body.options !== undefined) write.options = body.options === null ? null : JSON.stringify(restoreTree(body.options, stored?.options ?? null, 'body.options'));
    } catch (err) {
      maskedPath(err);
    }
    // Everything above is plaintext until here; only envelopes reach the repository.
    for (const field of CONNECTION_SECRET_FIELDS) {
      if (write[field] !== undefined) write[field] = this.box.encryptNullable(write[field]);
    }
    return write;
  }

  private decryptJson<T>(envelope: string | null): T | null {
    return envelope === null ? null : (JSON.parse(this.box.decrypt(envelope)) as T);
  }

  private keep(value: string | null | undefined, path: string): string {
    if (value === null || value === undefined) throw new MaskWithoutValue(path);
    return value;
  }

  private restoreAuth(input: Authentication, stored: Authentication | null): Authentication {
    const out: Authentication = {};
    if (input.type !== undefined) out.type = input.type;
    if (input.user !== undefined) out.user = input.user;
    if (input.token !== undefined) out.token = input.token === MASK ? this.keep(stored?.token, 'body.authentication.token') : input.token;
    if (input.pass !== undefined) out.pass = input.pass === MASK ? this.keep(stored?.pass, 'body.authentication.pass') : input.pass;
    return out;
  }
}

function maskedPath(err: unknown): never {
  if (err instanceof MaskWithoutValue) throw ValidationError.field(err.path, `is "${MASK}" but no stored value exists to keep`);
  throw err;
}
