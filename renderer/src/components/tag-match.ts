/**
 * The tag list's search (TagSelect.tsx), pure so the e2e journeys compute the same matches.
 */

export interface TagOption {
  id: string;
  label?: string | undefined;
  /** Open markets carrying the tag (unknown for a chosen tag the ranked list left out). */
  open_markets?: number | undefined;
}

/** Case- and accent-folded words, as the search index reads them. */
export const foldWords = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The options whose label has a word starting with each typed word; the chosen one always. */
export function matchTags<T extends TagOption>(options: readonly T[], query: string, chosen: string): T[] {
  const want = foldWords(query);
  if (want.length === 0) return [...options];
  return options.filter((t) => {
    if (t.id === chosen) return true;
    const have = foldWords(t.label ?? '');
    return want.every((w) => have.some((h) => h.startsWith(w)));
  });
}
