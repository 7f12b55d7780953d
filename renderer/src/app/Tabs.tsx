import { useRef } from 'react';
import { TABS, useStore, type TabName } from '../store';

/** The tab's id for a view (aria-controls / aria-labelledby pair it with its panel). */
export const tabId = (tab: TabName) => `tab-${tab.toLowerCase()}`;
/** The tab panel's id for a view. */
export const panelId = (tab: TabName) => `panel-${tab.toLowerCase()}`;

/** The view switcher (WAI-ARIA tabs: arrow keys, Home and End move between tabs). */
export function Tabs() {
  const tab = useStore((s) => s.tab);
  const setTab = useStore((s) => s.setTab);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (index: number) => {
    const next = TABS[(index + TABS.length) % TABS.length]!;
    setTab(next);
    refs.current[TABS.indexOf(next)]?.focus();
  };
  return (
    <div role="tablist" aria-label="Views" className="tabs">
      {TABS.map((name, index) => (
        <button
          key={name}
          ref={(element) => {
            refs.current[index] = element;
          }}
          role="tab"
          id={tabId(name)}
          aria-selected={name === tab}
          aria-controls={panelId(name)}
          tabIndex={name === tab ? 0 : -1}
          onClick={() => setTab(name)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight') move(index + 1);
            else if (event.key === 'ArrowLeft') move(index - 1);
            else if (event.key === 'Home') move(0);
            else if (event.key === 'End') move(TABS.length - 1);
          }}
        >
          {name}
        </button>
      ))}
    </div>
  );
}
