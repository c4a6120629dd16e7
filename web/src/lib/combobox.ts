import { clear, h } from './dom.js';

/** What a value list answered for one search: the values, and whether there were more. */
export interface ValueList {
  values: (string | number | boolean)[];
  truncated: boolean;
  /** The dataset's result has no such field (its query changed since the filter was made). */
  missing?: boolean;
}

export interface ComboboxOptions {
  /** The input's accessible name (a visible label can point at `id` instead). */
  label: string;
  id?: string;
  value: string;
  placeholder?: string;
  /** The values matching what was typed (the distinct-values route); asked a moment after the last key. */
  load(search: string, signal: AbortSignal): Promise<ValueList>;
  /** A value was chosen from the list, typed and confirmed (Enter, or leaving the field), or cleared (''). */
  onChange(value: string): void;
}

export interface Combobox {
  element: HTMLElement;
  input: HTMLInputElement;
  /** Shows a value chosen elsewhere (a reset), without calling onChange. */
  setValue(value: string): void;
  destroy(): void;
}

let nextId = 0;

/**
 * A text field with a list of values under it, searched as one types: the ARIA 1.2 combobox
 * pattern (input + listbox, aria-activedescendant), so it works from the keyboard and reads well:
 * Down/Up move through the values, Enter chooses, Escape closes and puts the value back. The list
 * starts with "Any value" (clears the filter); text that is in no list can be applied too.
 */
export function createCombobox(options: ComboboxOptions): Combobox {
  const uid = `combo-${++nextId}`;
  const listId = `${uid}-list`;
  let committed = options.value;
  let items: { value: string; text: string }[] = [];
  let active = -1;
  let timer: number | undefined;
  let inFlight: AbortController | undefined;

  const input = h('input', {
    type: 'text',
    id: options.id ?? `${uid}-input`,
    role: 'combobox',
    'aria-label': options.id ? undefined : options.label,
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': listId,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: options.placeholder ?? 'Any value',
    value: committed,
  });
  const list = h('ul', { id: listId, role: 'listbox', class: 'combo-list', 'aria-label': `Values of ${options.label}`, hidden: true });
  const note = h('p', { class: 'combo-note muted', 'aria-live': 'polite' });
  const element = h('div', { class: 'combo' }, input, list, note);

  const open = () => {
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  };
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
    note.textContent = '';
  };
  const highlight = (index: number) => {
    active = index;
    list.querySelectorAll('[role="option"]').forEach((el, i) => el.setAttribute('aria-selected', String(i === index)));
    if (index >= 0) {
      input.setAttribute('aria-activedescendant', `${uid}-opt-${index}`);
      list.children[index]?.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  const choose = (value: string) => {
    // A search still due (typed just before Enter) would open the list again.
    window.clearTimeout(timer);
    inFlight?.abort();
    input.value = value;
    close();
    if (value !== committed) {
      committed = value;
      options.onChange(value);
    }
  };
  const render = (answer: ValueList) => {
    items = [{ value: '', text: 'Any value' }, ...answer.values.map((v) => ({ value: String(v), text: String(v) }))];
    clear(list);
    items.forEach((item, i) => {
      const option = h('li', { id: `${uid}-opt-${i}`, role: 'option', 'aria-selected': 'false', class: item.value === '' ? 'combo-any' : undefined, 'data-value': item.value }, item.text);
      // mousedown, not click: the input keeps the focus, so leaving it does not commit the typed text first.
      option.addEventListener('mousedown', (event) => {
        event.preventDefault();
        choose(item.value);
      });
      list.append(option);
    });
    note.textContent = answer.missing
      ? "The dataset has no such field any more; type a value instead."
      : answer.values.length === 0
        ? 'No value matches.'
        : answer.truncated
          ? 'More values exist: type to narrow the list.'
          : '';
    highlight(-1);
  };
  const search = () => {
    // Opened on the chosen value (not typed): every value, so another can be picked.
    const text = input.value === committed ? '' : input.value;
    window.clearTimeout(timer);
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    note.textContent = 'Loading values…';
    open();
    options.load(text, controller.signal).then(
      (answer) => {
        if (!controller.signal.aborted) render(answer);
      },
      () => {
        if (!controller.signal.aborted) note.textContent = 'The values could not be loaded; type a value instead.';
      },
    );
  };
  const searchSoon = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(search, 250);
  };

  input.addEventListener('input', searchSoon);
  input.addEventListener('click', () => {
    if (list.hidden) search();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (list.hidden) {
        search();
        return;
      }
      const count = items.length;
      if (count === 0) return;
      highlight(event.key === 'ArrowDown' ? (active + 1) % count : (active - 1 + count) % count);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(active >= 0 && !list.hidden ? items[active]!.value : input.value.trim());
    } else if (event.key === 'Escape') {
      if (!list.hidden) event.preventDefault();
      input.value = committed;
      close();
    }
  });
  input.addEventListener('blur', () => {
    // Leaving the field applies what was typed, as a change of a plain text field does.
    choose(input.value.trim());
  });

  return {
    element,
    input,
    setValue(value) {
      committed = value;
      input.value = value;
    },
    destroy() {
      window.clearTimeout(timer);
      inFlight?.abort();
    },
  };
}
