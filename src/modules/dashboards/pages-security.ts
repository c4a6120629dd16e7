import type { FastifyRequest } from 'fastify';

/** Where dashboard header/footer code runs (see web/src/lib/frames.ts). */
export const FRAME_PATH = '/share-frame';

/**
 * Headers of the report and embed pages. No inline script or style anywhere; the API is the only
 * thing scripts may talk to; the only frame is the sandbox for header/footer code. Only the embed
 * page may itself be framed by other sites.
 */
export function pageHeaders(request: FastifyRequest, embeddable: boolean): Record<string, string> {
  // The frame's exact URL, as the browser will resolve it; an odd Host header falls back to 'self'.
  const frame = /^[\w.-]+(:\d+)?$|^\[[\da-fA-F:.]+\](:\d+)?$/.test(request.host) ? `${request.protocol}://${request.host}${FRAME_PATH}` : "'self'";
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' https: data:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${frame}`,
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    "manifest-src 'none'",
    `frame-ancestors ${embeddable ? '*' : "'none'"}`,
  ].join('; ');
  return {
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'cache-control': 'no-cache',
    ...(embeddable ? {} : { 'x-frame-options': 'DENY', 'cross-origin-opener-policy': 'same-origin' }),
  };
}

/**
 * The frame document is sandboxed by its own CSP (`sandbox allow-scripts`), not only by the
 * iframe attribute, so it has an opaque origin even when opened on its own: owner code in it can
 * reach neither this origin's cookies and storage nor the embedding page. Inline scripts are
 * allowed here (and only here) because running the owner's code is the frame's purpose; a srcdoc
 * frame would inherit the page's strict CSP and never run it.
 */
export function frameHeaders(): Record<string, string> {
  return {
    'content-security-policy': [
      'sandbox allow-scripts',
      "default-src * data: blob: 'unsafe-inline' 'unsafe-eval'",
      "form-action 'none'",
      "base-uri 'none'",
      "frame-ancestors 'self'",
    ].join('; '),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  };
}

/** Receives the code once from its parent, runs it, and reports its height so the parent can size it. */
const FRAME_SCRIPT = `(function () {
  var started = false;
  function report() {
    parent.postMessage({ type: 'plotline:height', height: document.documentElement.scrollHeight }, '*');
  }
  function scheme(value) {
    // Matching the frame element's colour scheme keeps the frame transparent over the page.
    if (value === 'light' || value === 'dark') document.documentElement.style.colorScheme = value;
  }
  addEventListener('message', function (event) {
    var data = event.data;
    if (event.source !== parent || !data) return;
    if (data.type === 'plotline:scheme') return scheme(data.scheme);
    if (started || data.type !== 'plotline:code') return;
    started = true;
    scheme(data.scheme);
    var holder = document.createElement('div');
    holder.innerHTML = String(data.html);
    var scripts = Array.prototype.slice.call(holder.querySelectorAll('script'));
    while (holder.firstChild) document.body.appendChild(holder.firstChild);
    // Scripts inserted through innerHTML never run; copies made with createElement do, in order.
    scripts.forEach(function (old) {
      var copy = document.createElement('script');
      for (var i = 0; i < old.attributes.length; i++) copy.setAttribute(old.attributes[i].name, old.attributes[i].value);
      copy.async = false;
      copy.text = old.text;
      old.parentNode.replaceChild(copy, old);
    });
    report();
    if (typeof ResizeObserver === 'function') new ResizeObserver(report).observe(document.body);
    addEventListener('load', report);
  });
})();`;

export const FRAME_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Dashboard code</title></head>
<body style="margin:0;font-family:system-ui,sans-serif">
<script>${FRAME_SCRIPT}</script>
</body>
</html>
`;
