// Import boundaries of the web app (ARCHITECTURE "The web app"), run by `npm run lint`:
// - a feature folder (`features/<a>/**`) never imports another one (`features/<b>/**`): what two features
//   share moves down to `components/` (UI), `lib/` (data hooks, rules) or `@fleetkeep/core`;
// - a feature imports neither the app shell (`app/`) nor `screens/`: what it needs of the session,
//   permissions or loading states lives in `lib/` and `components/`;
// - `components/` and `lib/` import neither features nor the app shell (`app/`, `screens/`), and `lib/`
//   (data, rules, the API client) does not import `components/` (UI).
// `app/` and `screens/` compose features and may import them. Biome's noRestrictedImports matches the
// import text, not the file it resolves to, so "another feature than mine" would need one override per
// feature and nesting depth; this check resolves every relative import instead. Node built-ins only.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'packages/web/src');
const SOURCE = /\.(ts|tsx|mts|js|jsx|mjs)$/;

/** Relative import specifiers of a module with their line numbers: static, re-exports and `import()`. */
export function importsOf(text) {
  const found = [];
  const lineAt = (index) => text.slice(0, index).split('\n').length;
  const add = (spec, index) => found.push({ spec, line: lineAt(index) });
  // Statements start a line; comment lines (` * `, `//`) never match.
  for (const m of text.matchAll(/^[ \t]*(?:import|export)\b[^;]*?\bfrom\s*(['"])([^'"\n]+)\1/gm))
    add(m[2], m.index);
  for (const m of text.matchAll(/^[ \t]*import\s*(['"])([^'"\n]+)\1/gm)) add(m[2], m.index);
  for (const m of text.matchAll(/\bimport\(\s*(['"])([^'"\n]+)\1\s*\)/g)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const before = text.slice(lineStart, m.index).trimStart();
    if (!before.startsWith('*') && !before.startsWith('//')) add(m[2], m.index);
  }
  return found.filter((i) => i.spec.startsWith('.'));
}

/** Where a file sits: its top folder under src/ and, inside features/, its feature. */
export function placeOf(file) {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts[0] === '..') return { top: null, feature: null };
  return {
    top: parts.length > 1 ? parts[0] : null,
    feature: parts[0] === 'features' ? (parts[1] ?? null) : null,
  };
}

/** The rule an import breaks, or null. */
export function violation(from, to) {
  if (from.top === 'features' && to.top === 'features' && from.feature !== to.feature)
    return `features/${from.feature} imports features/${to.feature}: move the shared part to components/, lib/ or core`;
  if (from.top === 'features' && ['app', 'screens'].includes(to.top))
    return `features/${from.feature} imports ${to.top}/: the app shell composes the features, not the other way round`;
  if ((from.top === 'components' || from.top === 'lib') && ['features', 'app', 'screens'].includes(to.top))
    return `${from.top}/ imports ${to.top}/: ${from.top}/ sits below the features and the app shell`;
  if (from.top === 'lib' && to.top === 'components') return 'lib/ imports components/: UI sits above lib/';
  return null;
}

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (SOURCE.test(entry.name)) yield full;
  }
}

export function check(srcDir = SRC) {
  const problems = [];
  let files = 0;
  let imports = 0;
  for (const file of walk(srcDir)) {
    files++;
    const from = placeOf(file);
    for (const { spec, line } of importsOf(fs.readFileSync(file, 'utf8'))) {
      imports++;
      const why = violation(from, placeOf(path.resolve(path.dirname(file), spec)));
      if (why) problems.push(`${path.relative(ROOT, file)}:${line}: '${spec}': ${why}`);
    }
  }
  return { problems, files, imports };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { problems, files, imports } = check();
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`check-boundaries: ${problems.length} import(s) cross a web boundary`);
    process.exit(1);
  }
  console.log(`check-boundaries: ${imports} relative imports in ${files} web files keep the boundaries`);
}
