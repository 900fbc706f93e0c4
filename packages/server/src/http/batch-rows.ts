import type { z } from 'zod';

/**
 * The rows of a batch call, each parsed on its own so that the reply lists the failures of every row at
 * once (spec §7; DESIGN §5: per-row errors with `row`, the index in the request): the valid rows with
 * their index, and every failing field of the others as `body.<key>.<row>.<path>`.
 */
export function parseRows<S extends z.ZodType>(schema: S, input: unknown[], key: string) {
  const parsed = input.map((raw) => schema.safeParse(raw));
  const rows = parsed.flatMap((p, row) => (p.success ? [{ row, data: p.data }] : []));
  const issues = parsed.flatMap((p, row) =>
    p.success
      ? []
      : p.error.issues.map((i) => ({
          row,
          field: ['body', key, row, ...i.path].join('.'),
          message: i.message,
        })),
  );
  return { rows, issues };
}
