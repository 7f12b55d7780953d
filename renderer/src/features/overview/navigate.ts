import { useStore } from '../../store';
import type { OverviewTarget } from './overview-model';

/** Opens a bar's or counter's target: the Pages table filtered (store showPages) or the Frontier view. */
export function openTarget(target: OverviewTarget): void {
  if (target.view === 'Pages') useStore.getState().showPages(target.filter);
  else useStore.getState().setTab('Frontier');
}

/** The words a button's accessible name ends with: where it leads. */
export function targetWords(target: OverviewTarget): string {
  return target.view === 'Pages' ? 'show in Pages' : 'show the Frontier view';
}
