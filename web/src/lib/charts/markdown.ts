import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { h } from '../dom.js';

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  // Links leave the report in a new tab and learn nothing about it.
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
  // An image written without a description is decorative to a screen reader, not a bare file name.
  if (node.tagName === 'IMG' && !node.hasAttribute('alt')) node.setAttribute('alt', '');
});

/** Markdown rendered by marked, then sanitised by DOMPurify before it touches the page. */
export function renderMarkdown(body: HTMLElement, content: string): void {
  const html = marked.parse(content, { async: false, gfm: true, breaks: true });
  const clean = DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'], FORBID_ATTR: ['style'] });
  const block = h('div', { class: 'markdown' });
  block.innerHTML = clean;
  body.append(block);
}
