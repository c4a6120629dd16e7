import { h } from './dom.js';
import { isDark } from './theme.js';

/** Served by the API process with its own CSP (`sandbox allow-scripts`, inline scripts allowed). */
export const FRAME_PATH = '/share-frame';
const MAX_HEIGHT = 2000;

const frames = new Map<Window, HTMLIFrameElement>();

window.addEventListener('message', (event) => {
  // Only the frames this page made may resize themselves, and only that.
  const frame = event.source ? frames.get(event.source as Window) : undefined;
  const data = event.data as { type?: unknown; height?: unknown } | null;
  if (!frame || data?.type !== 'plotline:height' || typeof data.height !== 'number') return;
  frame.style.height = `${Math.max(0, Math.min(MAX_HEIGHT, Math.ceil(data.height)))}px`;
});

/**
 * The dashboard's header or footer code, run in a sandboxed frame: `allow-scripts` without
 * `allow-same-origin` gives it an opaque origin, so it cannot read this page, its storage or the
 * token, cannot navigate it and cannot open pop-ups. The code reaches it by postMessage.
 */
export function codeFrame(code: string, label: string): HTMLIFrameElement {
  const frame = h('iframe', {
    class: 'code-frame',
    src: FRAME_PATH,
    sandbox: 'allow-scripts',
    referrerpolicy: 'no-referrer',
    title: label,
    'data-code-frame': label,
  });
  frame.addEventListener('load', () => {
    const target = frame.contentWindow;
    if (!target) return;
    frames.set(target, frame);
    // The frame's origin is opaque, so '*' is the only target origin that reaches it.
    target.postMessage({ type: 'plotline:code', html: code, scheme: isDark() ? 'dark' : 'light' }, '*');
  });
  return frame;
}

/** Tells every code frame the page's colour scheme changed (the OS flipped while following it). */
export function updateFrameSchemes(): void {
  for (const target of frames.keys()) target.postMessage({ type: 'plotline:scheme', scheme: isDark() ? 'dark' : 'light' }, '*');
}
