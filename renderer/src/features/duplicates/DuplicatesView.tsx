import { useState } from 'react';
import { useStore } from '../../store';
import { ContentGroupList } from './ContentGroupList';
import { GroupMembers } from './GroupMembers';
import { RulesSection } from './RulesSection';
import { UrlGroupList } from './UrlGroupList';
import { VersionGroups } from './VersionGroups';

type Selection = { kind: 'url'; id: number } | { kind: 'content'; id: number } | null;

/** The Duplicates view: duplicate-URL groups and content groups (selecting one shows its members), and pages across versions. */
export function DuplicatesView() {
  const crawlId = useStore((s) => s.crawlId);
  const live = useStore((s) => s.progress?.status === 'running');
  const [selection, setSelection] = useState<Selection>(null);
  return (
    <section className="panel duplicates" aria-label="Duplicates">
      <div className="group-lists">
        <UrlGroupList crawlId={crawlId} live={live} selected={selection?.kind === 'url' ? selection.id : null} onSelect={(id) => setSelection({ kind: 'url', id })} />
        <ContentGroupList crawlId={crawlId} live={live} selected={selection?.kind === 'content' ? selection.id : null} onSelect={(id) => setSelection({ kind: 'content', id })} />
      </div>
      <GroupMembers crawlId={crawlId} selection={selection} />
      <RulesSection crawlId={crawlId} live={live} contentGroupId={selection?.kind === 'content' ? selection.id : null} />
      <VersionGroups crawlId={crawlId} live={live} />
    </section>
  );
}
