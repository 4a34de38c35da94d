/**
 * The alert rules, oldest first, in `<dataDir>/alerts.json`; in memory only without a data dir.
 * Each rule is kept with its evaluation state (which side of its level the price was on, what it
 * already fired for, how far it read the change feed), so a restart neither re-fires nor misses
 * a crossing. Rules are added and removed here; evaluation changes their state in place and
 * calls `changed()`. Writes are whole-file, atomic and coalesced (coalesced-writer.ts).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ALERT_KINDS, type AlertRule } from '../contract/alerts-ops.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { CoalescedWriter } from './coalesced-writer.ts';
import { readJsonList } from '../store/json-list-file.ts';

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

interface FileShape {
  version: 1;
  rules: StoredRule[];
}

function isRule(v: unknown): v is StoredRule {
  const o = v as StoredRule;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof o.id === 'string' &&
    ALERT_KINDS.includes(o.kind) &&
    typeof o.label === 'string' &&
    typeof o.createdAt === 'string' &&
    typeof o.state === 'object' &&
    o.state !== null
  );
}

/** The rule as the API shows it: without its state. A shallow copy: evaluation changes only top-level fields. */
export function publicRule(r: StoredRule): AlertRule {
  const { state: _state, ...rule } = r;
  return rule;
}

export class AlertRulesFile {
  private rules_: StoredRule[];
  private readonly writer: CoalescedWriter;

  private constructor(file: string | undefined, rules: StoredRule[], log: Logger) {
    this.rules_ = rules;
    this.writer = new CoalescedWriter(file, (): FileShape => ({ version: 1, rules: this.rules_ }), log);
  }

  static async open(opts: { dataDir?: string; log?: Logger; now?: () => number } = {}): Promise<AlertRulesFile> {
    const log = opts.log ?? silentLogger;
    if (opts.dataDir === undefined) return new AlertRulesFile(undefined, [], log);
    const file = path.join(opts.dataDir, RULES_FILE);
    return new AlertRulesFile(
      file,
      await readJsonList(file, 'rules', isRule, 'an alert rules file', { log, now: opts.now ?? Date.now }),
      log,
    );
  }

  /** The live rules (evaluation changes their state in place, then calls changed()). */
  all(): readonly StoredRule[] {
    return this.rules_;
  }

  list(): AlertRule[] {
    return this.rules_.map(publicRule);
  }

  /** Appends a rule with a new id; a full list is a RangeError (nothing changes). */
  add(rule: Omit<StoredRule, 'id'>): StoredRule {
    if (this.rules_.length >= MAX_RULES) throw new RangeError(`at most ${MAX_RULES} alert rules are kept`);
    const added: StoredRule = { id: randomBytes(6).toString('hex'), ...rule };
    this.rules_ = [...this.rules_, added];
    this.writer.changed();
    return added;
  }

  /** False when there is no such rule (nothing changes). */
  remove(id: string): boolean {
    if (!this.rules_.some((r) => r.id === id)) return false;
    this.rules_ = this.rules_.filter((r) => r.id !== id);
    this.writer.changed();
    return true;
  }

  /** Rules' states or lastFiredAt changed in place. */
  changed(): void {
    this.writer.changed();
  }

  /** Waits until the file holds what memory holds. */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
