import type { AdminAccountWire } from '@fleetkeep/core';

/**
 * Pure rules of the activation screen (spec §2 /activation, §6): the account tree nested by `parent`,
 * the name filter and an account's shown state.
 */

export interface AccountNode {
  account: AdminAccountWire;
  depth: number;
  children: AccountNode[];
}

const byName = (a: AccountNode, b: AccountNode) =>
  a.account.n.localeCompare(b.account.n, undefined, { sensitivity: 'base' });

/**
 * Nests the accounts by `parent`; an account whose parent is not in the list (the caller's own account
 * or a top account) is a root. Siblings sorted by name. A parent cycle cannot come from the server; its
 * members would be dropped rather than loop.
 */
export function buildTree(accounts: readonly AdminAccountWire[]): AccountNode[] {
  const ids = new Set(accounts.map((a) => a.id));
  const childrenOf = new Map<number, AdminAccountWire[]>();
  const roots: AdminAccountWire[] = [];
  for (const a of accounts) {
    if (a.parent === null || !ids.has(a.parent)) roots.push(a);
    else childrenOf.set(a.parent, [...(childrenOf.get(a.parent) ?? []), a]);
  }
  const seen = new Set<number>();
  const node = (account: AdminAccountWire, depth: number): AccountNode => {
    seen.add(account.id);
    const children = (childrenOf.get(account.id) ?? [])
      .filter((c) => !seen.has(c.id))
      .map((c) => node(c, depth + 1))
      .sort(byName);
    return { account, depth, children };
  };
  return roots.map((a) => node(a, 0)).sort(byName);
}

/**
 * Keeps the accounts whose name contains `text` (case-insensitive) and their ancestors, so that a match
 * stays where it is in the tree. An empty filter keeps everything.
 */
export function filterTree(nodes: readonly AccountNode[], text: string): AccountNode[] {
  const needle = text.trim().toLocaleLowerCase();
  if (needle === '') return [...nodes];
  return nodes.flatMap((n) => {
    const children = filterTree(n.children, needle);
    const match = n.account.n.toLocaleLowerCase().includes(needle);
    return match || children.length > 0 ? [{ ...n, children }] : [];
  });
}

/**
 * The rows to show: a depth-first walk that descends only into expanded accounts. While a filter is
 * set, every kept account is open (its matches must be visible).
 */
export function visibleRows(
  nodes: readonly AccountNode[],
  expanded: ReadonlySet<number>,
  filtering: boolean,
) {
  const out: AccountNode[] = [];
  const walk = (list: readonly AccountNode[]) => {
    for (const n of list) {
      out.push(n);
      if (filtering || expanded.has(n.account.id)) walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

/** An account's shown state: its own suspension first, then one inherited from above (`active` 0). */
export type AccountState = 'active' | 'suspended' | 'suspendedByParent';

export function accountState(account: Pick<AdminAccountWire, 's' | 'active'>): AccountState {
  if (account.s === 0) return 'suspended';
  return account.active === 1 ? 'active' : 'suspendedByParent';
}

/** The ids of every account with children, for "expand all". */
export function parentIds(nodes: readonly AccountNode[]): number[] {
  return nodes.flatMap((n) => (n.children.length > 0 ? [n.account.id, ...parentIds(n.children)] : []));
}

/** The ids above an account, nearest first (to open the tree down to a selected account). */
export function ancestorIds(
  accounts: readonly Pick<AdminAccountWire, 'id' | 'parent'>[],
  id: number,
): number[] {
  const parentOf = new Map(accounts.map((a) => [a.id, a.parent]));
  const out: number[] = [];
  for (let p = parentOf.get(id) ?? null; p !== null && !out.includes(p); p = parentOf.get(p) ?? null)
    out.push(p);
  return out;
}
