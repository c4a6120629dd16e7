import { describe, expect, it } from 'vitest';
import { asSourceError, providerError, providerMessage } from './json-call.js';

const LABEL = { name: 'Firestore', credential: 'service account' };

describe('provider answers as typed errors', () => {
  it('reads the provider message from each documented error shape', () => {
    expect(providerMessage({ error: { code: 400, message: 'Invalid query', status: 'INVALID_ARGUMENT' } })).toBe('INVALID_ARGUMENT: Invalid query');
    expect(providerMessage({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' })).toBe('invalid_grant: Token has been expired or revoked.');
    expect(providerMessage({ error: 'Permission denied' })).toBe('Permission denied');
    expect(providerMessage({ meta: { error: 'Unauthorized request' } })).toBe('Unauthorized request');
    expect(providerMessage({ errors: [{ detail: 'not found', status: '404' }] })).toBe('not found');
    expect(providerMessage('<html> Bad   gateway </html>')).toBe('<html> Bad gateway </html>');
    expect(providerMessage(null)).toBe('');
  });

  it('401/403 name the credential, other 4xx are query failures, 5xx are unreachable', () => {
    expect(providerError(LABEL, { status: 403, json: { error: { message: 'no', status: 'PERMISSION_DENIED' } } }, undefined)).toMatchObject({
      statusCode: 400,
      code: 'SOURCE_QUERY_FAILED',
      message: 'Firestore refused the service account (HTTP 403): PERMISSION_DENIED: no',
    });
    expect(providerError(LABEL, { status: 404, json: { error: { message: 'gone', status: 'NOT_FOUND' } } }, undefined)).toMatchObject({ statusCode: 400, code: 'SOURCE_QUERY_FAILED' });
    expect(providerError(LABEL, { status: 503, json: { error: { message: 'busy', status: 'UNAVAILABLE' } } }, undefined)).toMatchObject({ statusCode: 502, code: 'SOURCE_UNREACHABLE' });
    expect(asSourceError(new Error('socket hang up'), LABEL, undefined)).toMatchObject({ statusCode: 502, code: 'SOURCE_UNREACHABLE' });
  });

  it('never repeats a secret the provider echoed back', () => {
    const error = providerError(LABEL, { status: 400, json: { error: 'bad key abcdef-secret-123' } }, { type: 'customerio', password: 'pw-secret-value' }, ['abcdef-secret-123']);
    expect(error.message).not.toContain('abcdef-secret-123');
    const echoed = providerError(LABEL, { status: 401, json: { meta: { error: 'key pw-secret-value refused' } } }, { type: 'customerio', password: 'pw-secret-value' });
    expect(echoed.message).not.toContain('pw-secret-value');
  });
});
