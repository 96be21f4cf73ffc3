import { readFileSync } from 'node:fs';

/** A share of a `.cpuprofile`'s busy time, in milliseconds. */
export interface Cost {
  name: string;
  ms: number;
}

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}

export interface Profile {
  /** Every sampled stack (root first) with the time it was seen, idle excluded. */
  stacks: Array<{ frames: Frame[]; ms: number }>;
  /** Functions by self time, largest first. */
  self: Cost[];
}

const short = (url: string) =>
  url
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/dist\//, 'dist/')
    .replace(/^file:\/\//, '');

/**
 * Reads a V8 `.cpuprofile` (what `node --cpu-prof` writes) into stacks and self times, from the first
 * sample whose stack holds a function named `from` on: the start-up (compiling every route's
 * schemas) is left out.
 */
export function readProfile(file: string, from: string): Profile {
  const p = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const holds = (id: number | undefined): boolean =>
    id !== undefined &&
    ((byId.get(id) as ProfileNode).callFrame.functionName === from || holds(parent.get(id)));
  const first = p.samples.findIndex((id) => holds(id));
  const perNode = new Map<number, number>();
  p.samples.forEach((id, i) => {
    // A sample's delta is the time since the one before it: the first counted is the second after `from`.
    if (first >= 0 && i > first) perNode.set(id, (perNode.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  const stacks: Profile['stacks'] = [];
  const self = new Map<string, number>();
  for (const [id, ms] of perNode) {
    const leaf = (byId.get(id) as ProfileNode).callFrame;
    if (leaf.functionName === '(idle)') continue;
    const frames: Frame[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      frames.unshift((byId.get(cur) as ProfileNode).callFrame);
    }
    stacks.push({ frames, ms });
    const name = `${leaf.functionName || '(anonymous)'} ${short(leaf.url)}${leaf.url ? `:${leaf.lineNumber + 1}` : ''}`;
    self.set(name, (self.get(name) ?? 0) + ms);
  }
  return { stacks, self: sorted(self) };
}

function sorted(m: Map<string, number>): Cost[] {
  return [...m].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

type Rule = [stage: string, test: (f: Frame, stack: Frame[]) => boolean];

const url = (part: string) => (f: Frame) => f.url.includes(part);
const fn =
  (...names: string[]) =>
  (f: Frame) =>
    names.includes(f.functionName);

/**
 * The stages of a request, innermost first: a sample belongs to the first rule that matches one of
 * its frames, walking from the leaf to the root. Node's own frames (sockets, streams, promises) match
 * no rule until a stage's frame does; a sample with none is Node's HTTP and event loop.
 */
const RULES: Rule[] = [
  ['garbage collection', fn('(garbage collector)')],
  ['event: invoice.created body', (f, s) => fn('newEvent', 'eventBody')(f) || s.some(fn('newEvent'))],
  ['response: toInvoice', fn('toInvoice')],
  ['response: serialisation (fast-json-stringify)', (f) => fn('serialize')(f) && url('fastify/lib/reply')(f)],
  ['insert: rows as JSON (inputRow)', fn('insertBatch', 'inputOf', 'inputRow')],
  ['database driver: pg, pg-protocol, kysely', (f) => /\/(pg|pg-protocol|pg-pool|kysely)\//.test(f.url)],
  ['database: group commit, statements', url('/dist/db/')],
  ['auth: key hash and cache', (f) => /dist\/merchants\/(authenticate|api-key)/.test(f.url)],
  ['rate limit', url('dist/http/rate-limit')],
  ['logging: request line, pino', (f) => /dist\/(http\/request-log|log)|\/pino/.test(f.url)],
  ['body: JSON parse and input guard', (f) => /dist\/http\/(input|json-depth)/.test(f.url)],
  [
    'validation: ajv',
    (f) => /\/ajv\/|dist\/http\/validation/.test(f.url) || /^validate\d+$/.test(f.functionName),
  ],
  ['pricing, rates', (f) => /dist\/(rates|invoices\/pricing)/.test(f.url)],
  [
    'payment methods, deposit address',
    (f) => /dist\/(networks|forwarders|watch|invoices\/offer)/.test(f.url),
  ],
  ['money, lifecycle schedule, ids', (f) => /dist\/(money|ids|invoices\/lifecycle)/.test(f.url)],
  ['idempotency fingerprint', url('dist/invoices/idempotency')],
  ['create service (the rest)', url('dist/invoices/service')],
  ['route handler (the rest)', url('dist/invoices/routes')],
  ['Fastify: routing, hooks, reply', (f) => /\/(fastify|find-my-way|avvio|light-my-request)\//.test(f.url)],
  ['other Paydesk code', url('/dist/')],
  ['start-up: module loading', (f) => /^node:internal\/modules/.test(f.url)],
];

/** The busy time by stage, largest first. */
export function byStage(profile: Profile): Cost[] {
  const stages = new Map<string, number>();
  for (const { frames, ms } of profile.stacks) {
    let stage = 'Node: HTTP parser, sockets, event loop';
    outer: for (let i = frames.length - 1; i >= 0; i--) {
      for (const [name, test] of RULES) {
        if (test(frames[i] as Frame, frames)) {
          stage = name;
          break outer;
        }
      }
    }
    if (frames.length === 2 && /^\((program|root)\)$/.test(frames[1]?.functionName ?? ''))
      stage = 'V8 (program)';
    stages.set(stage, (stages.get(stage) ?? 0) + ms);
  }
  return sorted(stages);
}
