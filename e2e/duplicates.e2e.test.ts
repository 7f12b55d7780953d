import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTab, screenshot, startCrawl, useWorkbench, waitForStatus } from './helpers/workbench';

const workbench = useWorkbench();
let page: Page;

beforeAll(async () => {
  page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(workbench.serve.url);
});

let crawled: Promise<void> | null = null;
/** Crawls the fixture sites once (inside a test: expect.poll needs one) and opens Duplicates. */
function crawlFixtures(): Promise<void> {
  crawled ??= (async () => {
    // session.test and site.test spell URLs many ways; dup.test has a known exact pair and near pair.
    await startCrawl(page, ['http://session.test/', 'http://site.test/', 'http://dup.test/']);
    await waitForStatus(page, 'finished', 60_000);
    await openTab(page, 'Duplicates');
  })();
  return crawled;
}


/** Cell texts of a table's body rows. */
async function rowsOf(name: string): Promise<string[][]> {
  const rows = page.getByRole('table', { name }).getByRole('row');
  const count = await rows.count();
  const result: string[][] = [];
  for (let index = 1; index < count; index += 1) result.push(await rows.nth(index).getByRole('cell').allTextContents());
  return result;
}

describe('(d) Duplicates shows the fixture sites’ known groups', () => {
  it('URL groups: one normalized key, its raw URLs with a cause each, and the canonical URL with its heuristic', async () => {
    await crawlFixtures();
    await expect.poll(async () => (await rowsOf('URL groups')).map((cells) => cells[0]).sort(), { timeout: 10_000 }).toEqual(
      expect.arrayContaining(['http://session.test/item', 'http://session.test/other?id=2']),
    );
    // b.html#part differs from b.html only by its fragment: counted with b.html's spelling, not a group of its own (issue 15).
    expect((await rowsOf('URL groups')).map((cells) => cells[0])).not.toContain('http://site.test/b.html');
    // The normalized URL is the string; the normalized key is its UUID, each under its own name.
    expect(await page.getByRole('table', { name: 'URL groups' }).getByRole('columnheader').allTextContents()).toEqual(['Normalized URL', 'Raw URLs', 'Normalized key']);
    expect((await rowsOf('URL groups')).find((cells) => cells[0] === 'http://session.test/item')).toEqual(['http://session.test/item', '3', expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/)]);

    await page.getByRole('table', { name: 'URL groups' }).getByRole('row').filter({ hasText: 'http://session.test/item' }).click();
    const members = page.getByRole('table', { name: 'URL group members' });
    await expect.poll(async () => members.getByRole('row').count(), { timeout: 5_000 }).toBe(4);
    const cells = (await members.getByRole('row').all()).slice(1);
    const byUrl = Object.fromEntries(
      await Promise.all(cells.map(async (row) => [await row.getByRole('cell').first().textContent(), await row.getByRole('listitem').allTextContents()] as const)),
    );
    // Query-string sessions lose the parameter and then the empty "?"; the path parameter is removed alone.
    expect(byUrl).toEqual({
      'http://session.test/item?PHPSESSID=abc123': ['tracking parameter', 'empty query'],
      'http://session.test/item?PHPSESSID=def456': ['tracking parameter', 'empty query'],
      'http://session.test/item;jsessionid=XYZ': ['tracking parameter'],
    });
    // The spelling that was fetched (status 200) is the canonical URL.
    expect(await page.getByTestId('group-canonical').textContent()).toBe('http://session.test/item?PHPSESSID=abc123');
    expect(await page.getByTestId('group-heuristic').textContent()).toBe('fetched with status 200');
    // Every spelling carries a session id, so the heuristics decide among them (no clean one to prefer).
    expect(await page.getByTestId('group-layer').textContent()).toBe('the best raw URL of the group');
    // The Versions grouping is part of the view; these sites have no page under two versions.
    expect(await page.getByTestId('version-templates-total').textContent()).toBe('0 templates');

  });

  it('content groups: the exact pair and the near pair of dup.test, with similarity and a text diff', async () => {
    await crawlFixtures();
    const groups = await rowsOf('Content groups');
    const dup = groups.filter((cells) => cells[1]!.startsWith('http://dup.test/'));
    expect(dup.map((cells) => cells.slice(0, 3))).toEqual([
      ['exact', 'http://dup.test/a.html', '2'],
      ['near', 'http://dup.test/near-1.html', '2'],
    ]);
    const nearSimilarity = Number(dup[1]![3]);
    expect(nearSimilarity).toBeGreaterThanOrEqual(0.9);
    expect(nearSimilarity).toBeLessThan(1);

    const members = page.getByRole('table', { name: 'Content group members' });
    await page.getByRole('table', { name: 'Content groups' }).getByRole('row').filter({ hasText: 'http://dup.test/a.html' }).click();
    await expect.poll(async () => (await members.getByRole('row').all()).length, { timeout: 5_000 }).toBe(3);
    expect((await members.getByRole('row').nth(1).getByRole('cell').allTextContents()).slice(0, 3)).toEqual(['http://dup.test/a.html', 'Story', '1.00']);
    expect((await members.getByRole('row').nth(2).getByRole('cell').allTextContents()).slice(0, 3)).toEqual(['http://dup.test/a-copy.html', 'Story (copy)', '1.00']);

    await page.getByRole('table', { name: 'Content groups' }).getByRole('row').filter({ hasText: 'http://dup.test/near-1.html' }).click();
    await expect.poll(async () => (await members.getByRole('row').nth(2).getByRole('cell').allTextContents())[0], { timeout: 5_000 }).toBe('http://dup.test/near-2.html');
    expect(Number((await members.getByRole('row').nth(2).getByRole('cell').allTextContents())[2])).toBe(nearSimilarity);
    expect(await page.getByRole('figure', { name: 'Text diff' }).isVisible()).toBe(true);
    await screenshot(page, 'duplicates');
  });
});
