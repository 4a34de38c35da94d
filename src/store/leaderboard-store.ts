/**
 * Cached leaderboards, one per (category, timePeriod, orderBy), in the catalog database so
 * they survive restarts and serve offline. A board is replaced whole by each fetch; entries keep
 * the upstream's order (`position`) and values. The tables: migrations.ts v3.
 */
import type { BoardKey, LeaderboardEntry } from '../contract/leaderboard-ops.ts';
import type { Bind, Row, Statements } from './statements.ts';

export type { BoardKey };

export interface BoardQuery {
  offset: number;
  limit: number;
  /** Wallet address, any letter case. */
  user?: string;
  /** User name, any letter case. */
  userName?: string;
}

const COLS = 'rank, proxy_wallet, user_name, vol, pnl, profile_image, x_username, verified_badge';

function toEntry(r: Row): LeaderboardEntry {
  return {
    rank: r[0] as string,
    proxyWallet: r[1] as string,
    userName: r[2] as string,
    vol: r[3] as number,
    pnl: r[4] as number,
    profileImage: r[5] as string,
    xUsername: JSON.parse(r[6] as string) as LeaderboardEntry['xUsername'],
    verifiedBadge: JSON.parse(r[7] as string) as LeaderboardEntry['verifiedBadge'],
  };
}

const keyBind = (k: BoardKey): Bind => [k.category, k.timePeriod, k.orderBy];
const KEY = 'category = ? AND period = ? AND order_by = ?';

export class LeaderboardStore {
  constructor(
    private readonly st: Statements,
    private readonly changed: () => void,
  ) {}

  replace(key: BoardKey, entries: readonly LeaderboardEntry[], fetchedAtMs: number): void {
    this.st.transaction(() => {
      this.st.run(`DELETE FROM leaderboard_entries WHERE ${KEY}`, keyBind(key));
      entries.forEach((e, position) => {
        this.st.run(
          `INSERT INTO leaderboard_entries (category, period, order_by, position, ${COLS}, _wallet_lc, _name_lc) ` +
            'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [
            ...keyBind(key),
            position,
            e.rank,
            e.proxyWallet,
            e.userName,
            e.vol,
            e.pnl,
            e.profileImage,
            JSON.stringify(e.xUsername),
            JSON.stringify(e.verifiedBadge),
            e.proxyWallet.toLowerCase(),
            e.userName.toLowerCase(),
          ],
        );
      });
      this.st.run('INSERT OR REPLACE INTO leaderboard_boards (category, period, order_by, fetched_at) VALUES (?, ?, ?, ?)', [
        ...keyBind(key),
        fetchedAtMs,
      ]);
    });
    this.changed();
  }

  /** When the board was fetched (epoch ms), or null when it was never cached. */
  fetchedAt(key: BoardKey): number | null {
    const v = this.st.value(`SELECT fetched_at FROM leaderboard_boards WHERE ${KEY}`, keyBind(key));
    return typeof v === 'number' ? v : null;
  }

  count(key: BoardKey): number {
    return Number(this.st.value(`SELECT count(*) FROM leaderboard_entries WHERE ${KEY}`, keyBind(key)) ?? 0);
  }

  /** Filters first, then pages over what matched. */
  query(key: BoardKey, q: BoardQuery): LeaderboardEntry[] {
    const where = [KEY];
    const bind = keyBind(key);
    if (q.user !== undefined) {
      where.push('_wallet_lc = ?');
      bind.push(q.user.toLowerCase());
    }
    if (q.userName !== undefined) {
      where.push('_name_lc = ?');
      bind.push(q.userName.toLowerCase());
    }
    return this.st
      .all(`SELECT ${COLS} FROM leaderboard_entries WHERE ${where.join(' AND ')} ORDER BY position LIMIT ? OFFSET ?`, [
        ...bind,
        q.limit,
        q.offset,
      ])
      .map(toEntry);
  }
}
