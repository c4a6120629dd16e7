import { ApiError } from './api.js';
import { clear, h } from './dom.js';

/** The server's message as a sentence, to be followed by another. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

interface Explanation {
  title: string;
  message: string;
}

/** What each stable error code means to the person holding the link. */
function explain(error: unknown, what: 'dashboard' | 'chart'): Explanation {
  if (!(error instanceof ApiError)) return { title: 'Something went wrong', message: `The ${what} could not be shown. Try reloading the page.` };
  switch (error.code) {
    case 'SHARE_TOKEN_EXPIRED':
    case 'SHARE_POLICY_EXPIRED':
      return { title: 'This link has expired', message: `Ask the person who shared this ${what} for a new link.` };
    case 'SHARE_TOKEN_REVOKED':
      return { title: 'This link has been revoked', message: `The owner withdrew this link. Ask them for a new one if you still need the ${what}.` };
    case 'SHARE_POLICY_DELETED':
      return { title: 'This link is no longer shared', message: `The ${what} is not shared through this link any more.` };
    case 'SHARE_POLICY_DISABLED':
      return { title: 'Sharing is turned off', message: `The owner has turned off sharing for this ${what}.` };
    case 'SHARE_TOKEN_INVALID':
      return { title: 'This link is not valid', message: 'Check that the whole link was copied, or ask for a new one.' };
    case 'SHARE_TOKEN_REQUIRED':
      return { title: `This ${what} is private`, message: 'Open it with the full share link, including its token.' };
    case 'NOT_FOUND':
    case 'ROUTE_NOT_FOUND':
      return { title: 'Not found', message: `There is no ${what} at this address.` };
    case 'RATE_LIMITED':
      return { title: 'Too many requests', message: `Please wait${error.retryAfter ? ` ${error.retryAfter} seconds` : ' a moment'} and try again.` };
    case 'NETWORK':
      return { title: 'No connection', message: 'The server could not be reached. Check your connection and reload.' };
    case 'CHART_UNAVAILABLE':
      return { title: 'The chart is unavailable', message: 'Its data could not be computed right now. Try again later.' };
    case 'CHART_VARIABLES_INVALID':
      return { title: 'The chart cannot be drawn', message: "The link's parameters do not fit this chart." };
    case 'CHART_QUERY_FAILED':
      return { title: 'The chart is broken', message: 'Its query fails on the data source. The owner of the dashboard has to correct it.' };
    case 'VALIDATION_FAILED':
      return { title: 'This link is not valid', message: error.message };
    case 'SHARE_PARAM_LOCKED':
      return { title: 'This link fixes that value', message: `${sentence(error.message)} Remove it from the address to see the ${what}.` };
    case 'FILTER_NOT_ALLOWED':
      return { title: 'That filter cannot be set here', message: error.message };
    default:
      return { title: 'Something went wrong', message: `The ${what} could not be shown (${error.code}).` };
  }
}

/**
 * Why the filters of the address could not be applied, in one sentence for the filter bar. The
 * server's message names the parameter or filter at fault.
 */
export function filterErrorText(error: unknown): string {
  if (!(error instanceof ApiError)) return 'The filters could not be applied.';
  switch (error.code) {
    case 'SHARE_PARAM_LOCKED':
      return `This link fixes that value, so it cannot be changed: ${error.message}`;
    case 'FILTER_NOT_ALLOWED':
      return `That filter cannot be set on this page: ${error.message}`;
    case 'VARIABLE_INVALID':
    case 'VALIDATION_FAILED':
      return `A filter value is not valid: ${error.message}`;
    default:
      return `${explain(error, 'dashboard').title}: ${explain(error, 'dashboard').message}`;
  }
}

export function showLoading(root: HTMLElement, text: string): void {
  clear(root);
  document.body.dataset['state'] = 'loading';
  root.setAttribute('aria-busy', 'true');
  root.append(h('div', { class: 'status-card' }, h('div', { class: 'spinner', 'aria-hidden': 'true' }), h('p', { class: 'status' }, text)));
}

export function showError(root: HTMLElement, error: unknown, what: 'dashboard' | 'chart'): void {
  const { title, message } = explain(error, what);
  clear(root);
  root.removeAttribute('aria-busy');
  document.body.dataset['state'] = 'error';
  document.body.dataset['errorCode'] = error instanceof ApiError ? error.code : 'UNKNOWN';
  document.title = title;
  root.append(h('section', { class: 'status-card error', role: 'alert' }, h('h1', {}, title), h('p', {}, message)));
}

/** The password form of a protected dashboard; `onSubmit` resolves once the next attempt is done. */
export function showPasswordForm(root: HTMLElement, wrong: boolean, onSubmit: (password: string) => void): void {
  clear(root);
  root.removeAttribute('aria-busy');
  document.body.dataset['state'] = 'password';
  document.title = 'Password required';
  const input = h('input', { type: 'password', id: 'share-password', name: 'password', autocomplete: 'current-password', required: true, 'aria-describedby': wrong ? 'password-error' : undefined });
  const form = h(
    'form',
    { class: 'status-card password-form', 'aria-label': 'Dashboard password' },
    h('h1', {}, 'This dashboard is protected'),
    h('p', {}, 'Enter the password you were given to see it.'),
    wrong ? h('p', { class: 'form-error', id: 'password-error', role: 'alert' }, 'That password is not correct. Try again.') : null,
    h('label', { for: 'share-password' }, 'Password'),
    input,
    h('button', { type: 'submit' }, 'View dashboard'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (input.value !== '') onSubmit(input.value);
  });
  root.append(form);
  input.focus();
}
