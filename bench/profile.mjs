// Summary of a V8 CPU profile of the bench's server: the functions with the most self
// time, the most inclusive time, and self time per package. Record one with
//   BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" BENCH_ONLY=fleet_units node bench/run.mjs --quick
// (the server writes one profile per start; the last is the benchmarks' run; start-up is left out), then
//   node bench/profile.mjs /tmp/prof [top]
// A directory argument summarises its last `.cpuprofile`.
import fs from 'node:fs';
import path from 'node:path';

function profileFile(arg) {
  if (!fs.statSync(arg).isDirectory()) return arg;
  const files = fs
    .readdirSync(arg)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(arg, f));
  if (!files.length) throw new Error(`no .cpuprofile in ${arg}`);
  // Named after the start time: the last one is the server the benchmarks ran against.
  return files.sort().at(-1);
}

/** `name (file:line)` of a call frame, with the path shortened to the package or the project file. */
function frameKey(cf) {
  const url = cf.url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  const where = pkg ? `${pkg[1]}/${pkg[2]}` : url.replace(/^.*\/packages\//, '');
  return `${cf.functionName || '(anonymous)'} ${where ? `${where}:${cf.lineNumber + 1}` : ''}`.trim();
}

function packageOf(cf) {
  const url = cf.url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1];
  if (url.includes('/packages/')) return url.replace(/^.*\/packages\/([^/]+)\/.*$/, 'fleetkeep/$1');
  if (url.startsWith('node:') || (url && !url.includes('/'))) return 'node (internal)';
  return cf.functionName.startsWith('(') ? cf.functionName : 'node (native)';
}

export function summarise(profile, top = 25) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Start-up (module loading, migrations) is left out: samples count from the first HTTP request on.
  const stackHas = (id, name) => {
    for (let at = id; at !== undefined; at = parent.get(at))
      if (nodes.get(at).callFrame.functionName === name) return true;
    return false;
  };
  const first = profile.samples.findIndex((id) => stackHas(id, 'parserOnIncoming'));
  const samples = profile.samples.slice(Math.max(0, first));
  const selfByNode = new Map();
  for (const id of samples) selfByNode.set(id, (selfByNode.get(id) ?? 0) + 1);
  const total = samples.length;
  const self = new Map();
  const inclusive = new Map();
  const packages = new Map();
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  for (const [id, count] of selfByNode) {
    const node = nodes.get(id);
    add(self, frameKey(node.callFrame), count);
    add(packages, packageOf(node.callFrame), count);
    // Every function on the stack once, however deep its recursion.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const key = frameKey(nodes.get(at).callFrame);
      if (!seen.has(key)) {
        seen.add(key);
        add(inclusive, key, count);
      }
    }
  }
  const pct = (n) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
  const list = (m, n) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${pct(v)}  ${k}`)
      .join('\n');
  return [
    `${total} samples`,
    `self time by package:\n${list(packages, 15)}`,
    `self time by function:\n${list(self, top)}`,
    `inclusive time by function:\n${list(inclusive, top * 2)}`,
  ].join('\n\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = profileFile(process.argv[2] ?? '.');
  console.log(file);
  console.log(summarise(JSON.parse(fs.readFileSync(file, 'utf8')), Number(process.argv[3] ?? 25)));
}
