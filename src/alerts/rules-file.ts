/**
 * The alert rules, oldest first, in `<dataDir>/alerts.json`; in memory only without a data dir.
 * Each rule is kept with its evaluation state (which side of its level the price was on, what it
 * already fired for, how far it read the change feed), so a restart neither re-fires nor misses
 * a crossing. Rules are added and removed here; evaluation changes their state in place and
 * calls `changed()`. Writes are whole-file, atomic and coalesced (store/json-list-file.ts).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { alertRuleSchema, type AlertRule } from '../contract/alerts-ops.ts';
import { JsonListFile, type JsonListOpenOptions, type JsonListSpec } from '../store/json-list-file.ts';

export const RULES_FILE = 'alerts.json';
/** More would be a script gone wrong, not a trader's alerts. */
export const MAX_RULES = 5_000;

/** What a rule remembers between evaluations (rules-file.ts keeps it with the rule). */
export interface RuleState {
  /** price_cross: the side of the level the price was on when last seen. */
  side?: 'above' | 'below';
  /** price_cross: the price then (the firing's "before"). */
  last?: number;
  /** price_move, ends_soon: the targets (`m<id>`, `e<id>`) whose condition held and fired; each re-arms when it stops holding. */
  held?: string[];
  /** new_match: the change feed's position read up to (its seq). */
  changeSeq?: number;
  /** rule_edit: the revisions' position read up to (their seq). */
  revisionSeq?: number;
}

export interface StoredRule extends AlertRule {
  state: RuleState;
}

const ruleStateSchema = z.object({
  side: z.enum(['above', 'below']).optional(),
  last: z.number().optional(),
  held: z.array(z.string()).optional(),
  changeSeq: z.number().optional(),
  revisionSeq: z.number().optional(),
}) satisfies z.ZodType<RuleState>;

const RULES: JsonListSpec<StoredRule> = {
  name: RULES_FILE,
  key: 'rules',
  item: alertRuleSchema.extend({ state: ruleStateSchema }),
  what: 'an alert rules file',
};

/** The rule as the API shows it: without its state. A shallow copy: evaluation changes only top-level fields. */
export function publicRule(r: StoredRule): AlertRule {
  const { state: _state, ...rule } = r;
  return rule;
}

export class AlertRulesFile {
  private constructor(private readonly file: JsonListFile<StoredRule>) {}

  static async open(opts: JsonListOpenOptions = {}): Promise<AlertRulesFile> {
    return new AlertRulesFile(await JsonListFile.open(RULES, opts));
  }

  /** The live rules (evaluation changes their state in place, then calls changed()). */
  all(): readonly StoredRule[] {
    return this.file.items;
  }

  list(): AlertRule[] {
    return this.file.items.map(publicRule);
  }

  /** Appends a rule with a new id; a full list is a RangeError (nothing changes). */
  add(rule: Omit<StoredRule, 'id'>): StoredRule {
    if (this.file.items.length >= MAX_RULES) throw new RangeError(`at most ${MAX_RULES} alert rules are kept`);
    const added: StoredRule = { id: randomBytes(6).toString('hex'), ...rule };
    this.file.set([...this.file.items, added]);
    return added;
  }

  /** False when there is no such rule (nothing changes). */
  remove(id: string): boolean {
    if (!this.file.items.some((r) => r.id === id)) return false;
    this.file.set(this.file.items.filter((r) => r.id !== id));
    return true;
  }

  /** Rules' states or lastFiredAt changed in place. */
  changed(): void {
    this.file.changed();
  }

  /** Waits until the file holds what memory holds. */
  flush(): Promise<void> {
    return this.file.flush();
  }
}
