/**
 * Rows of seed 001's version URL templates as the store keeps them (migration 0021): the Versions
 * grouping of the Duplicates view, the URL inspector and `crawlbench export --what versions`.
 * They live in shared/types so the engine's queries never import the IPC contract.
 */
import type { UrlState } from './crawl';

/** One template in the list: a page across software versions. */
export interface VersionTemplateRow {
  templateId: number;
  /** The URL with the version segment as `%s` (`%%` a literal `%`): `http://docs.test/%s/library/os.html`. */
  template: string;
  /** Distinct versions seen (two or more), release numbers ascending, then channels (compareVersions). */
  versions: string[];
}

/** One URL of a template: its version and how its fetch went. */
export interface VersionMemberRow {
  urlId: number;
  url: string;
  version: string;
  state: UrlState;
  /** HTTP status of its fetch; null when not fetched. */
  httpStatus: number | null;
}

/** The template a URL belongs to, with its versions (the one with most versions when it fits two). */
export interface UrlVersionTemplate {
  templateId: number;
  template: string;
  /** This URL's version. */
  version: string;
  versions: string[];
}

/** One row of the versions export: a member URL under its template. */
export interface VersionExportRow extends VersionMemberRow {
  templateId: number;
  template: string;
  /** Every version of the template (the member's own is `version`). */
  versions: string[];
}
