/**
 * The search box: an ARIA 1.2 combobox whose suggestions are the recent queries of the index.
 * `/` anywhere on the page focuses it; ArrowDown/ArrowUp move through the suggestions, Enter
 * searches (the highlighted suggestion, or what is typed), Escape closes the list. The list floats
 * over the page, so opening it while typing moves nothing.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { suggest } from '../recent-queries.js';

interface Props {
  /** The query of the shown results; the box follows it when the page navigates (back/forward). */
  readonly query: string;
  readonly recent: readonly string[];
  readonly onSearch: (q: string) => void;
}

/** The search form: combobox, suggestion list and button. */
export function SearchBox({ query, recent, onSearch }: Props) {
  const [text, setText] = useState(query);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);

  // Follow the query of a navigation (back/forward, a shared link) in the same render, not in an
  // effect after paint: a late effect would overwrite what the user has started typing since.
  const [shownQuery, setShownQuery] = useState(query);
  if (query !== shownQuery) {
    setShownQuery(query);
    setText(query);
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target !== null && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      e.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => { document.removeEventListener('keydown', onKey); };
  }, []);

  const options = open ? suggest(recent, text) : [];
  const shown = options.length > 0;

  const run = (q: string): void => {
    setText(q);
    setOpen(false);
    setActive(-1);
    onSearch(q);
  };

  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(-1);
        return;
      }
      const n = options.length;
      if (n === 0) return;
      setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : a <= 0 ? n - 1 : a - 1));
    } else if (e.key === 'Escape') {
      if (shown) e.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if (e.key === 'Enter' && shown && active >= 0) {
      e.preventDefault();
      run(options[active]);
    }
  };

  return (
    <form
      class="search-form"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        run(text);
      }}
    >
      <label class="visually-hidden" for="q">Search</label>
      <div class="combo">
        <input
          id="q"
          ref={input}
          type="search"
          name="q"
          value={text}
          placeholder="Search… (press / to focus)"
          autocomplete="off"
          spellcheck={false}
          role="combobox"
          // Preact's types allow role=combobox on an input only beside `list` (a datalist); the
          // suggestions here are an ARIA listbox instead, so there is no datalist to name.
          list={undefined}
          aria-expanded={shown}
          aria-controls="suggestions"
          aria-autocomplete="list"
          {...(shown && active >= 0 ? { 'aria-activedescendant': `suggestion-${active}` } : {})}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => { setOpen(true); }}
          onBlur={() => { setOpen(false); setActive(-1); }}
          onKeyDown={onKeyDown}
        />
        <ul id="suggestions" role="listbox" aria-label="Recent searches" class="suggestions" hidden={!shown}>
          {options.map((o, i) => (
            <li
              key={o}
              id={`suggestion-${i}`}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : undefined}
              // mousedown, not click: the input's blur would close the list before a click lands.
              onMouseDown={(e) => {
                e.preventDefault();
                run(o);
              }}
            >
              {o}
            </li>
          ))}
        </ul>
      </div>
      <button type="submit">Search</button>
    </form>
  );
}
