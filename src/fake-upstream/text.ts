/**
 * Text for the synthetic catalog: a shared vocabulary (English function words at the head of a
 * Zipf distribution, pseudo-words in the tail) so full-text search sees realistic term
 * frequencies, plus the fixed phrasing Polymarket descriptions use.
 */
import { mulberry32, zipfSampler, randInt, pick, type Rng } from './prng.ts';

const COMMON = [
  'the',
  'of',
  'to',
  'and',
  'a',
  'in',
  'this',
  'market',
  'will',
  'be',
  'by',
  'for',
  'if',
  'on',
  'resolve',
  'is',
  'as',
  'that',
  'any',
  'or',
  'not',
  'yes',
  'no',
  'date',
  'source',
  'official',
  'reporting',
  'credible',
  'consensus',
  'information',
  'announced',
  'before',
  'after',
  'between',
  'than',
  'more',
  'less',
  'price',
  'time',
  'et',
  'per',
  'according',
  'data',
  'report',
  'final',
  'result',
  'win',
  'election',
  'vote',
  'event',
  'day',
  'week',
  'month',
  'year',
  'at',
  'from',
  'with',
  'which',
  'may',
  'other',
  'such',
  'it',
  'its',
  'an',
  'are',
  'was',
  'has',
  'been',
  'only',
  'also',
  'however',
];

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'h',
  'j',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'w',
  'z',
  'br',
  'dr',
  'kl',
  'st',
  'tr',
  'sh',
  'ch',
  'gr',
  'pl',
  'th',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ea', 'y'];
const CODAS = ['', '', '', 'n', 'r', 'l', 's', 'k', 'x', 'nd', 'rt', 'st', 'm'];

function pseudoWord(rng: Rng): string {
  const syllables = randInt(rng, 1, 3) + (rng() < 0.5 ? 1 : 0);
  let w = '';
  for (let i = 0; i < syllables; i++) w += pick(rng, ONSETS) + pick(rng, VOWELS) + (i === syllables - 1 ? pick(rng, CODAS) : '');
  return w;
}

/** Built once with a fixed seed: every catalog shares the word list (memory, and stable search terms). */
function buildVocabulary(size: number): string[] {
  const rng = mulberry32(0x5eed_0001);
  const seen = new Set<string>(COMMON);
  const words = [...COMMON];
  while (words.length < size) {
    const w = pseudoWord(rng);
    if (w.length < 3 || seen.has(w)) continue;
    seen.add(w);
    words.push(w);
  }
  return words;
}

export const VOCABULARY: readonly string[] = buildVocabulary(6000);
const wordRank = zipfSampler(VOCABULARY.length, 1.05);
/** Proper names draw from the pseudo-word part only, with their own (flatter) popularity. */
const nameRank = zipfSampler(VOCABULARY.length - COMMON.length, 0.8);

export function word(rng: Rng): string {
  return VOCABULARY[wordRank(rng)] as string;
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const NAMES: readonly string[] = VOCABULARY.slice(COMMON.length).map(capitalize);

export function properName(rng: Rng): string {
  return NAMES[nameRank(rng)] as string;
}

export function personName(rng: Rng): string {
  return [properName(rng), properName(rng)].join(' ');
}

const slugOut = Buffer.allocUnsafe(128);

/**
 * Lower-case, hyphenated, ASCII only, at most 90 characters: how Polymarket derives slugs from
 * titles. A byte loop rather than three regex passes (hot at 500k markets).
 */
export function slugify(s: string): string {
  let p = 0;
  let dash = false;
  for (let i = 0; i < s.length && p < 90; i++) {
    let c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (dash && p > 0) slugOut[p++] = 45;
      dash = false;
      if (p < 90) slugOut[p++] = c;
    } else dash = true;
  }
  return slugOut.toString('latin1', 0, p);
}

function makeSentence(rng: Rng): string {
  const n = randInt(rng, 6, 18);
  const words: string[] = [capitalize(word(rng))];
  for (let i = 1; i < n; i++) words.push(rng() < 0.06 ? `${word(rng)},` : word(rng));
  const last = words.length - 1;
  words[last] = `${(words[last] as string).replace(/,$/, '')}.`;
  return words.join(' ');
}

/**
 * A shared pool of Zipf sentences, built once with a fixed seed. Descriptions are strings of
 * sentences drawn from it: term statistics stay Zipf-like, and building 500k descriptions costs
 * a few picks each instead of ~100 word draws.
 */
const SENTENCE_POOL_SIZE = 40_000;
let sentencePool: string[] | undefined;
function sentences(): string[] {
  if (!sentencePool) {
    const rng = mulberry32(0x5eed_0002);
    sentencePool = Array.from({ length: SENTENCE_POOL_SIZE }, () => makeSentence(rng));
  }
  return sentencePool;
}

/** Pushes sentences onto `out` until about `targetChars` are added (callers join once: flat strings). */
function fillerSentences(rng: Rng, targetChars: number, out: string[]): void {
  const pool = sentences();
  let len = 0;
  while (len < targetChars) {
    const s = pool[Math.floor(rng() * pool.length)] as string;
    if (len > 0) out.push(' ');
    out.push(s);
    len += s.length + 1;
  }
}

/**
 * Tagged template that returns a flat string. Plain template literals build ropes (cons strings)
 * that cost several times the text's size for as long as the catalog keeps them.
 */
export function flat(strings: TemplateStringsArray, ...values: unknown[]): string {
  const parts: string[] = [strings[0] as string];
  for (let i = 0; i < values.length; i++) parts.push(String(values[i]), strings[i + 1] as string);
  return parts.join('');
}

const SOURCES = [
  'official information from the relevant authorities',
  'the official results as published by the responsible election authority',
  'the closing price reported by the named exchange',
  'official league statistics',
  'a consensus of credible reporting',
];

/** A market description: resolution template around Zipf filler, total about `target` characters. */
export function marketDescription(rng: Rng, clause: string, target: number): string {
  const source = pick(rng, SOURCES);
  const parts = ['This market will resolve to "Yes" if ', clause, '. Otherwise, this market will resolve to "No".\n\n'];
  const fixed = 120 + clause.length + source.length;
  fillerSentences(rng, Math.max(40, target - fixed), parts);
  parts.push(
    '\n\nThe primary resolution source for this market will be ',
    source,
    ', however a consensus of credible reporting may also be used.',
  );
  return parts.join('');
}

export function eventDescription(rng: Rng, title: string, target: number): string {
  const parts = ['This is a market group on: ', title, ' '];
  fillerSentences(rng, Math.max(40, target - title.length - 28), parts);
  return parts.join('');
}

/** Log-normal text length around `mean`, clamped like the real distribution (max about 1.8k). */
export function textLength(rng: Rng, mean: number, min: number, max: number): number {
  const u = 1 - rng();
  const g = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
  return Math.min(max, Math.max(min, Math.round(mean * Math.exp(0.35 * g - 0.06))));
}
