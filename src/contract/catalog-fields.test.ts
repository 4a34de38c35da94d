/**
 * The field lists are the one declaration of the cached fields: the served and upstream shapes
 * take their typed fields from them. Checked by the type checker (`tsc -p src`): a field typed by
 * hand in one of those shapes, or typed otherwise than its kind, fails here; the only other keys
 * are the id and the nested lists, and the only other type is outcomePrices' null.
 */
import { describe, expect, it } from 'vitest';
import {
  EVENT_FIELD_KINDS,
  MARKET_FIELD_KINDS,
  SERIES_FIELD_KINDS,
  TAG_FIELD_KINDS,
  type FieldKind,
  type FieldKindValue,
} from './catalog-fields.ts';
import type { Series } from './gamma-extra-ops.ts';
import type { GammaEvent, GammaMarket, GammaSeries, GammaTag } from './gamma.ts';
import type { Event, EventTag, Market } from './types.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** The declared keys of a shape, without its index signature. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
/** The shape declares exactly the fields of `F` plus `Other`, each field typed as its kind (but `Except`). */
type Declares<T, F extends Readonly<Record<string, FieldKind>>, Other extends string, Except extends keyof F = never> =
  Equal<KnownKeys<T>, keyof F | Other> extends true
    ? false extends { [K in Exclude<keyof F, Except>]: Equal<T[K & keyof T], FieldKindValue[F[K]] | undefined> }[Exclude<keyof F, Except>]
      ? 'a field typed otherwise than its kind'
      : true
    : 'keys other than the field list and the documented exceptions';

type Markets = typeof MARKET_FIELD_KINDS;
const checks: true[] = [
  true satisfies Declares<Market, Markets, 'id' | 'events', 'outcomePrices'>,
  true satisfies Declares<GammaMarket, Markets, 'id' | 'events', 'outcomePrices'>,
  true satisfies Equal<Market['outcomePrices'], string | null | undefined>,
  true satisfies Equal<GammaMarket['outcomePrices'], string | null | undefined>,
  true satisfies Declares<Event, typeof EVENT_FIELD_KINDS, 'id' | 'tags' | 'markets'>,
  true satisfies Declares<GammaEvent, typeof EVENT_FIELD_KINDS, 'id' | 'markets' | 'tags' | 'series'>,
  true satisfies Declares<EventTag, typeof TAG_FIELD_KINDS, 'id'>,
  true satisfies Declares<GammaTag, typeof TAG_FIELD_KINDS, 'id'>,
  true satisfies Declares<Series, typeof SERIES_FIELD_KINDS, 'id' | 'events'>,
  true satisfies Declares<GammaSeries, typeof SERIES_FIELD_KINDS, 'id'>,
];

describe('catalog field lists', () => {
  it('type each cached field of the served and upstream shapes (checked by tsc)', () => {
    expect(checks.every(Boolean)).toBe(true);
  });

  it('give every field a kind', () => {
    for (const list of [MARKET_FIELD_KINDS, EVENT_FIELD_KINDS, TAG_FIELD_KINDS, SERIES_FIELD_KINDS]) {
      for (const kind of Object.values(list)) expect(['text', 'num', 'bool', 'json']).toContain(kind);
    }
  });
});
