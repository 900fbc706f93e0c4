/**
 * The defaults a choice brings into a form (a library item's price or cost, a unit's counter), applied
 * at the moment the choice is made, picked from a list or typed. A field takes its default when it is
 * empty, or when it still holds the default of the choice being replaced (nobody typed there, so the old
 * default would be wrong for the new choice). A value the user typed is never replaced; a choice without
 * a default ('' or undefined) leaves the field as it is.
 *
 * `defaults`: the new choice's defaults; `replaced`: those of the choice it replaces, if any.
 */
export function fillDefaults<T extends Record<K, string>, K extends keyof T>(
  form: T,
  defaults: Partial<Record<K, string>>,
  replaced: Partial<Record<K, string>> = {},
): T {
  let next = form;
  for (const key of Object.keys(defaults) as K[]) {
    const value = defaults[key];
    if (value === undefined || value === '') continue;
    const current = form[key];
    if (current.trim() === '' || current === replaced[key]) next = { ...next, [key]: value };
  }
  return next;
}
