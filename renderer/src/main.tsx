import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { bootstrap, connectStoreToEvents } from './store';
import './styles.css';

// Events are wired and startup loads begin before the first render: the workbench shows a neutral
// loading state until `bootstrap` has decided what to show (the "Resume crawl?" offer, the open crawl).
connectStoreToEvents();
void bootstrap();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
