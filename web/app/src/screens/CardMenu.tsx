import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export interface MenuItem {
  label: string;
  run: () => void;
  danger?: boolean;
}

/**
 * A card's menu: a button that opens a list of actions, usable with the keyboard alone (Enter or
 * Space or ↓ opens it on the first action, ↑ ↓ Home End move, Enter runs, Escape or Tab closes and
 * gives the focus back to the button), as the WAI-ARIA menu button pattern describes.
 */
export function CardMenu({ label, items }: { label: string; items: MenuItem[] }) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const entries = useRef<Array<HTMLButtonElement | null>>([]);
  const id = useId();

  useEffect(() => {
    if (open) entries.current[active]?.focus();
  }, [open, active]);
  useEffect(() => {
    if (!open) return undefined;
    const close = (event: MouseEvent) => {
      if (!(event.target instanceof Node) || !button.current?.parentElement?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const show = (at: number) => {
    setActive(at);
    setOpen(true);
  };
  const hide = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };
  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      show(event.key === 'ArrowDown' ? 0 : items.length - 1);
    }
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const last = items.length - 1;
    const moves: Record<string, number> = { ArrowDown: active === last ? 0 : active + 1, ArrowUp: active === 0 ? last : active - 1, Home: 0, End: last };
    if (event.key in moves) {
      event.preventDefault();
      setActive(moves[event.key]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      hide(true);
    } else if (event.key === 'Tab') {
      hide(false);
    }
  };

  return (
    <div className="card-menu">
      <button
        ref={button}
        type="button"
        className="link"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? hide(false) : show(0))}
        onKeyDown={onButtonKey}
      >
        {label}
      </button>
      {open ? (
        <ul className="card-menu-list" role="menu" id={id} aria-label={label} onKeyDown={onMenuKey}>
          {items.map((item, index) => (
            <li role="none" key={item.label}>
              <button
                ref={(el) => {
                  entries.current[index] = el;
                }}
                type="button"
                role="menuitem"
                tabIndex={index === active ? 0 : -1}
                className={item.danger ? 'danger' : undefined}
                onClick={() => {
                  hide(true);
                  item.run();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
