import { CheckpointsView } from '../features/checkpoints/CheckpointsView';
import { CompareView } from '../features/compare/CompareView';
import { CrawlsView } from '../features/crawls/CrawlsView';
import { CrawlView } from '../features/crawl/CrawlView';
import { DuplicatesView } from '../features/duplicates/DuplicatesView';
import { FrontierView } from '../features/frontier/FrontierView';
import { UrlInspector } from '../features/inspector/UrlInspector';
import { OverviewView } from '../features/overview/OverviewView';
import { PagesView } from '../features/pages/PagesView';
import { RecoveryDialog } from '../features/recovery/RecoveryDialog';
import { SettingsView } from '../features/settings/SettingsView';
import { useStore, type TabName } from '../store';
import { ConnectionBanner } from './ConnectionBanner';
import { RunningCrawlIndicator } from './RunningCrawlIndicator';
import { StartConfirmDialog } from './StartConfirmDialog';
import { panelId, tabId, Tabs } from './Tabs';

const VIEWS: Record<TabName, () => React.JSX.Element> = {
  Crawl: CrawlView,
  Pages: PagesView,
  Overview: OverviewView,
  Frontier: FrontierView,
  Duplicates: DuplicatesView,
  Compare: CompareView,
  Settings: SettingsView,
  Checkpoints: CheckpointsView,
  History: CrawlsView,
};

/**
 * The workbench: a tab per view; only the visible view is mounted (and queries main). Until
 * startup has decided what to show (main.tsx runs `bootstrap`), a neutral loading state.
 */
export function App() {
  const ready = useStore((s) => s.ready);
  const mode = useStore((s) => s.info?.mode);
  const infoError = useStore((s) => s.infoError);
  const tab = useStore((s) => s.tab);
  if (!ready) {
    return (
      <main className="app" aria-busy="true">
        <header className="app-header">
          <h1>Crawlbench</h1>
        </header>
        <ConnectionBanner />
        <p className="loading muted" role="status">
          Opening Crawlbench…
        </p>
      </main>
    );
  }
  const View = VIEWS[tab];
  return (
    <main className="app">
      <header className="app-header">
        <h1>Crawlbench</h1>
        <Tabs />
        {mode ? <span className="mode">{mode === 'browser' ? 'browser mode' : 'desktop'}</span> : null}
      </header>
      <ConnectionBanner />
      <RunningCrawlIndicator />
      {infoError ? <p className="field-error">{infoError}</p> : null}
      <div className="workspace">
        <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} className="tabpanel">
          <View />
        </div>
        <UrlInspector />
      </div>
      <RecoveryDialog />
      <StartConfirmDialog />
    </main>
  );
}
