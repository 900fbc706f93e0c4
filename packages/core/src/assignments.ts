/**
 * Vehicle assignments (docs/product.md "Vehicle assignments"): a driver, a member of the fleet, drives a
 * unit from a start to an end; an open end means the assignment is current. Assignments of one unit
 * never overlap. Pure rules here; the server applies them in the unit's row lock.
 */

/** A span of time in Unix seconds: `[start, end)`, `end` null while open. */
export interface AssignmentSpan {
  id?: number;
  start: number;
  end: number | null;
}

/** True when two spans share a moment: an end equal to the other's start is not an overlap. */
export function spansOverlap(a: AssignmentSpan, b: AssignmentSpan): boolean {
  const aEnd = a.end ?? Number.POSITIVE_INFINITY;
  const bEnd = b.end ?? Number.POSITIVE_INFINITY;
  return a.start < bEnd && b.start < aEnd;
}

/** The first span of `others` (by start) that `span` overlaps, ignoring the one with the span's own id. */
export function clashOf<T extends AssignmentSpan>(span: AssignmentSpan, others: readonly T[]): T | undefined {
  return [...others]
    .sort((a, b) => a.start - b.start)
    .find((o) => (span.id === undefined || o.id !== span.id) && spansOverlap(span, o));
}

/** True when the span holds `at`: started by then and not yet ended. */
export function isCurrentAt(span: AssignmentSpan, at: number): boolean {
  return span.start <= at && (span.end === null || span.end > at);
}
