/**
 * A catalog grid under its saved screens' tabs (issue 16), for markets and events alike: a tab adds
 * its screen's parameters to the grid's own filters and sort, so the count, the CSV export and every
 * block of rows follow the screen.
 */
import { useState } from 'react';
import type { ScreenKind } from '../../../src/contract/enums.ts';
import type { Screen } from '../../../src/contract/screens-ops.ts';
import { ScreenTabs, useScreenFreshness } from '../catalog/ScreenTabs.tsx';
import { CatalogView, type CatalogConfig } from './Catalog.tsx';

export function ScreenedCatalog<T extends { id: string }, P extends 'markets' | 'events'>({
  kind,
  config,
}: {
  kind: ScreenKind;
  config: CatalogConfig<T, P>;
}) {
  const [screen, setScreen] = useState<Screen | null>(null);
  useScreenFreshness(kind, screen);
  return (
    <div className="screens-view">
      <ScreenTabs kind={kind} selected={screen} onSelect={setScreen} />
      <CatalogView config={config} {...(screen ? { screen: screen.params } : {})} />
    </div>
  );
}
