import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { DeliveriesService } from './deliveries-service.js';

const Query = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2048, description: 'The signed token of the unsubscribe link' }) });
const Html = Type.String({ description: 'An HTML page' });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .headers({ 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'", 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2937}button{font:inherit;padding:.5rem 1rem;background:#1d4ed8;color:#fff;border:0;border-radius:4px;cursor:pointer}</style>` +
        `</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}

const INVALID = '<p>This unsubscribe link is not valid, or its delivery no longer exists.</p>';

/**
 * The unsubscribe link of a delivery e-mail: no login, the signed token is the right, and it does
 * one thing: take its address off its subscription. GET shows a confirmation with a button (mail
 * scanners that follow links change nothing); POST does it, and is also the RFC 8058 one-click
 * target that mail clients call from the `List-Unsubscribe` header.
 */
export const publicDeliveryRoutes: FastifyPluginAsyncTypebox<{ deliveries: DeliveriesService; rateLimit: number }> = async (app, { deliveries, rateLimit }) => {
  const config = { rateLimit: { max: rateLimit, timeWindow: 60_000 } };
  const tags = ['deliveries'];
  // The one-click POST of RFC 8058 is a form body (`List-Unsubscribe=One-Click`); the token is in the URL.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));

  app.get(
    '/subscription/unsubscribe',
    { config, schema: { tags, operationId: 'unsubscribePage', summary: 'The unsubscribe confirmation page of a delivery e-mail (changes nothing)', querystring: Query, response: { 200: Html, 404: Html } } },
    async (request, reply) => {
      const target = await deliveries.unsubscribeTarget(request.query.token);
      if (!target) return page(reply, 404, 'Unsubscribe', INVALID);
      const action = `/subscription/unsubscribe?token=${encodeURIComponent(request.query.token)}`;
      return page(
        reply,
        200,
        'Unsubscribe',
        `<p>Stop sending <strong>${escapeHtml(target.title)}</strong> to <strong>${escapeHtml(target.email)}</strong>?</p>` +
          `<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  );

  app.post(
    '/subscription/unsubscribe',
    { config, schema: { tags, operationId: 'unsubscribe', summary: 'Unsubscribe the address of the link from its delivery (also the RFC 8058 one-click target)', querystring: Query, response: { 200: Html, 404: Html } } },
    async (request, reply) => {
      const done = await deliveries.unsubscribe(request.query.token);
      if (!done) return page(reply, 404, 'Unsubscribe', INVALID);
      return page(reply, 200, 'Unsubscribed', `<p><strong>${escapeHtml(done.email)}</strong> will no longer receive <strong>${escapeHtml(done.title)}</strong>.</p>`);
    },
  );
};
