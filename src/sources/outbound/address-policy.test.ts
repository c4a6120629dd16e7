import { describe, expect, it } from 'vitest';
import { OutboundPolicy, classifyAddress } from './address-policy.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'private'],
    ['127.255.255.254', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.10.10', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.1', 'private'],
    ['255.255.255.255', 'private'],
    ['198.18.0.1', 'private'],
    ['192.0.2.5', 'private'],
    ['::', 'private'],
    ['::1', 'private'],
    ['fe80::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'private'],
    ['2001:db8::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['2002:7f00:1::', 'private'],
    ['::127.0.0.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.170.2', 'metadata'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

const lookupTable =
  (table: Record<string, string[]>) =>
  async (host: string): Promise<Array<{ address: string; family: 4 | 6 }>> =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('OutboundPolicy', () => {
  const lookup = lookupTable({
    'public.test': ['93.184.216.34'],
    'loopback.test': ['127.0.0.1'],
    'mixed.test': ['93.184.216.34', '10.0.0.5'],
    'internal.test': ['10.0.0.5'],
    'meta.test': ['169.254.169.254'],
    'v6.test': ['::1'],
  });

  it('allows only http and https', () => {
    const policy = new OutboundPolicy({ lookup });
    expect(policy.checkUrl('https://public.test/x').hostname).toBe('public.test');
    for (const url of ['file:///etc/passwd', 'ftp://public.test/', 'gopher://x/', 'javascript:alert(1)', 'not a url']) {
      expect(() => policy.checkUrl(url)).toThrowError(expect.objectContaining({ statusCode: 400, code: 'TARGET_NOT_ALLOWED' }));
    }
  });

  it('refuses literal private and metadata addresses, in every spelling the URL parser accepts', () => {
    const policy = new OutboundPolicy({ lookup });
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/',
      'http://METADATA.GOOGLE.INTERNAL./',
      'http://100.100.100.200/',
    ]) {
      expect(() => policy.checkUrl(url), url).toThrowError(expect.objectContaining({ code: 'TARGET_NOT_ALLOWED' }));
    }
  });

  it('checks every resolved address of a host name', async () => {
    const policy = new OutboundPolicy({ lookup });
    await expect(policy.resolve('public.test')).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
    await expect(policy.resolve('loopback.test')).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED', reason: 'private_network' });
    await expect(policy.resolve('mixed.test')).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    await expect(policy.resolve('v6.test')).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    await expect(policy.resolve('meta.test')).rejects.toMatchObject({ reason: 'metadata_endpoint' });
    await expect(policy.resolve('nowhere.test')).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
  });

  it('lets the allow-list open private ranges and host names, never metadata', async () => {
    const policy = new OutboundPolicy({ lookup, allowPrivateHosts: ['10.0.0.0/8', 'loopback.test', '169.254.0.0/16', 'metadata.google.internal', '::1'] });
    await expect(policy.resolve('internal.test')).resolves.toHaveLength(1);
    await expect(policy.resolve('loopback.test')).resolves.toHaveLength(1);
    await expect(policy.resolve('v6.test')).resolves.toHaveLength(1);
    expect(() => policy.checkUrl('http://[::ffff:10.1.1.1]/')).not.toThrow();
    await expect(policy.resolve('meta.test')).rejects.toMatchObject({ reason: 'metadata_endpoint' });
    expect(() => policy.checkUrl('http://169.254.169.254/')).toThrowError(expect.objectContaining({ code: 'TARGET_NOT_ALLOWED' }));
    expect(() => policy.checkUrl('http://metadata.google.internal/')).toThrowError(expect.objectContaining({ code: 'TARGET_NOT_ALLOWED' }));
    // A host name on the list does not open other names resolving to the same address.
    await expect(new OutboundPolicy({ lookup, allowPrivateHosts: ['internal.test'] }).resolve('loopback.test')).rejects.toMatchObject({
      code: 'TARGET_NOT_ALLOWED',
    });
  });
});
