import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Unsubscribe links: a token naming one subscription and one address, signed with a key derived
 * from the share secret (never the encryption key). It needs no login and does only this: take
 * that address off that subscription. It does not expire: an old e-mail's link must still work.
 */
export class DeliveryLinks {
  private readonly key: Buffer;

  constructor(shareSecret: Buffer, private readonly baseUrl: string) {
    this.key = createHmac('sha256', shareSecret).update('plotline:delivery-unsubscribe').digest();
  }

  token(subscriptionId: number, email: string): string {
    const payload = Buffer.from(JSON.stringify([subscriptionId, email]), 'utf8').toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  unsubscribeUrl(subscriptionId: number, email: string): string {
    return `${this.baseUrl}/subscription/unsubscribe?token=${this.token(subscriptionId, email)}`;
  }

  /** The subscription and address a token names, or undefined when it is not one of ours. */
  verify(token: string): { subscriptionId: number; email: string } | undefined {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return undefined;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const [id, email] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      if (typeof id !== 'number' || !Number.isInteger(id) || typeof email !== 'string') return undefined;
      return { subscriptionId: id, email };
    } catch {
      return undefined;
    }
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
