import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `npx tsx scripts/architecture.ts`: the figures of the tree for a review. The folders of src, the
 * imports between them (from dependency-cruiser, the same tool `npm run architecture` checks cycles
 * with), the folder edges that are part of a cycle, and the lines per source file.
 */
interface Cruised {
  folders: Array<{ name: string; dependencies: Array<{ name: string; circular: boolean }> }>;
}

const json = execFileSync(
  'node_modules/.bin/depcruise',
  ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'src'],
  { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
);
const cruised = JSON.parse(json) as Cruised;
const feature = (name: string) => /^src\/([^/]+)$/.exec(name)?.[1];
const edges = new Map<string, boolean>();
for (const folder of cruised.folders) {
  const from = feature(folder.name);
  if (!from) continue;
  for (const dep of folder.dependencies) {
    const to = feature(dep.name);
    if (to && to !== from) edges.set(`${from} → ${to}`, dep.circular);
  }
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
  });
const lines = sourceFiles('src')
  .map((f) => readFileSync(f, 'utf8').split('\n').length - 1)
  .sort((a, b) => a - b);
const at = (q: number) => lines[Math.min(lines.length - 1, Math.floor(q * lines.length))];

const out = [
  `src: ${readdirSync('src').join('  ')}`,
  '',
  'imports between folders:',
  ...[...edges].sort().map(([edge, circular]) => `  ${edge}${circular ? '   (in a cycle)' : ''}`),
  '',
  `folder edges in a cycle: ${[...edges.values()].filter(Boolean).length} of ${edges.size}`,
  `source files: ${lines.length}; lines per file: median ${at(0.5)}, p90 ${at(0.9)}, max ${lines.at(-1)}`,
];
process.stdout.write(`${out.join('\n')}\n`);
