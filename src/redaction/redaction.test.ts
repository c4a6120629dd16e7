import { describe, expect, it } from 'vitest';
import { MASK, MaskWithoutValue, isSecretName, maskConnectionString, maskTree, maskWebhookUrl, restoreConnectionString, restoreTree, restoreWebhookUrl } from './index.js';

describe('maskConnectionString', () => {
  it.each([
    ['postgres://u:p4ss@h:5432/db', `postgres://u:${MASK}@h:5432/db`],
    ['mongodb+srv://u:p%40ss@cluster.example/db?retryWrites=true', `mongodb+srv://u:${MASK}@cluster.example/db?retryWrites=true`],
    // An unencoded '/' in the password would otherwise leave its tail visible.
    ['postgres://u:pa/ss@h/db', `postgres://u:${MASK}@h/db`],
    ['postgres://u@h/db', 'postgres://u@h/db'],
    ['postgres://h/db?user=u&password=s3cret&sslmode=require', `postgres://h/db?user=u&password=${MASK}&sslmode=require`],
    ['host=h port=5432 password=s3cret dbname=d', `host=h port=5432 password=${MASK} dbname=d`],
    ["host=h password='s3 cret' dbname=d", `host=h password=${MASK} dbname=d`],
    ['Server=h;Database=d;Uid=u;Pwd=s3cret;', `Server=h;Database=d;Uid=u;Pwd=${MASK};`],
    ['mysql://h:3306/db', 'mysql://h:3306/db'],
  ])('%s', (input, masked) => {
    expect(maskConnectionString(input)).toBe(masked);
  });
});

describe('restoreConnectionString', () => {
  const stored = 'postgres://u:p4ss@h:5432/db?password=other';
  it('keeps the stored secrets where placeholders are sent back, even with other parts changed', () => {
    expect(restoreConnectionString(maskConnectionString(stored), stored, 'p')).toBe(stored);
    expect(restoreConnectionString(`postgres://u:${MASK}@h2:5432/db?password=${MASK}`, stored, 'p')).toBe('postgres://u:p4ss@h2:5432/db?password=other');
    expect(restoreConnectionString(`postgres://u:new@h:5432/db?password=${MASK}`, stored, 'p')).toBe('postgres://u:new@h:5432/db?password=other');
  });
  it('takes a string without placeholders as it is', () => {
    expect(restoreConnectionString('postgres://u:x@h/db', stored, 'p')).toBe('postgres://u:x@h/db');
  });
  it('refuses a placeholder with nothing stored to keep', () => {
    expect(() => restoreConnectionString(`postgres://u:${MASK}@h/db`, null, 'body.connectionString')).toThrow(MaskWithoutValue);
    expect(() => restoreConnectionString(`postgres://u:${MASK}@h/db?password=${MASK}`, 'postgres://u:a@h/db', 'p')).toThrow(MaskWithoutValue);
  });
});

describe('maskWebhookUrl / restoreWebhookUrl', () => {
  const slack = 'https://hooks.slack.com/services/T000/B000/XXXXSECRET';
  it('shows the origin only: the path and the query carry the credential', () => {
    expect(maskWebhookUrl(slack)).toBe(`https://hooks.slack.com/${MASK}`);
    expect(maskWebhookUrl('http://user:pw@127.0.0.1:8080/hook?token=abc')).toBe(`http://127.0.0.1:8080/${MASK}`);
    expect(maskWebhookUrl('not a url')).toBe(MASK);
  });
  it('keeps the stored URL when the masked one (or the placeholder) comes back', () => {
    expect(restoreWebhookUrl(maskWebhookUrl(slack), slack, 'p')).toBe(slack);
    expect(restoreWebhookUrl(MASK, slack, 'p')).toBe(slack);
    expect(restoreWebhookUrl('https://example.com/new', slack, 'p')).toBe('https://example.com/new');
  });
  it('refuses a placeholder that does not stand for the stored URL', () => {
    expect(() => restoreWebhookUrl(`https://other.example/${MASK}`, slack, 'body.config.url')).toThrow(MaskWithoutValue);
    expect(() => restoreWebhookUrl(MASK, null, 'body.config.url')).toThrow(MaskWithoutValue);
  });
});

describe('maskTree / restoreTree', () => {
  const options = [
    { Authorization: 'Bearer abc' },
    { 'X-Api-Key': 'k1' },
    { Accept: 'application/json' },
    { key: 'Cookie', value: 'sid=1' },
    { key: 'Accept-Language', value: 'en' },
    { nested: { client_secret: 's', region: 'eu', retries: 3, apiToken: 42 } },
  ];

  it('masks values under secret-looking names only', () => {
    expect(maskTree(options)).toEqual([
      { Authorization: MASK },
      { 'X-Api-Key': MASK },
      { Accept: 'application/json' },
      { key: 'Cookie', value: MASK },
      { key: 'Accept-Language', value: 'en' },
      { nested: { client_secret: MASK, region: 'eu', retries: 3, apiToken: MASK } },
    ]);
    expect(maskTree({ password: '', token: null })).toEqual({ password: '', token: null });
    expect(['authorization', 'Cookie', 'x-access-token', 'apikey', 'client_secret', 'PASSWORD', 'pwd'].every(isSecretName)).toBe(true);
    expect(['Accept', 'region', 'retryWrites', 'authSource'].some(isSecretName)).toBe(false);
  });

  it('restores placeholders from the same place, or by name when entries moved', () => {
    expect(restoreTree(maskTree(options), options, 'body.options')).toEqual(options);
    const reordered = [{ key: 'Cookie', value: MASK }, { Authorization: MASK }, { Accept: 'text/csv' }];
    expect(restoreTree(reordered, options, 'body.options')).toEqual([{ key: 'Cookie', value: 'sid=1' }, { Authorization: 'Bearer abc' }, { Accept: 'text/csv' }]);
  });

  it('refuses a placeholder with nothing stored to keep, naming where it is', () => {
    expect(() => restoreTree([{ Authorization: MASK }], null, 'body.options')).toThrow(expect.objectContaining({ path: 'body.options.0.Authorization' }));
    expect(() => restoreTree({ headers: [{ key: 'X-Token', value: MASK }] }, {}, 'body.options')).toThrow(expect.objectContaining({ path: 'body.options.headers.0.value' }));
  });
});
