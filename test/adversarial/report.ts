/**
 * What the fuzz saw: counts by category and by failure class, failures grouped by what went wrong
 * (so a defect that hits fifty operations reads as one line with a sample), and the text of the
 * report and of the failure message.
 */

import type { WireResult } from '../wire.ts';
import { envelopeProblems, errorCodeOf } from './envelope.ts';
import { type BadRequest, CATEGORIES, type Category } from './requests.ts';

/** The failure classes the acceptance criterion counts (all must be 0), plus answers that succeed. */
export const FAILURE_CLASSES = [
  '5xx',
  'no answer',
  'not the envelope',
  'accepted (2xx/3xx)',
  'rows changed',
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

export interface Failure {
  kind: FailureClass;
  op: string;
  category: Category | '-';
  defect: string;
  request: string;
  outcome: string;
  answer: string;
}

interface Group {
  count: number;
  ops: Set<string>;
  sample: Failure;
}

const excerpt = (text: string, length: number) => {
  const flat = JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);
  return flat.slice(1, -1);
};

export class Tally {
  sent = 0;
  readonly byCategory = new Map<Category, number>();
  /** Milliseconds spent per category (where a slow defect shows). */
  readonly msByCategory = new Map<Category, number>();
  readonly failures: Failure[] = [];
  /** Answers whose status is not one docs/reference/errors.md gives the request (reported, not failed). */
  offReference = 0;
  readonly offReferenceGroups = new Map<string, Group>();
  slow = 0;
  slowest = { ms: 0, what: '' };

  /** Records one exchange; returns its failures (none: it passed). */
  record(op: string, request: BadRequest, result: WireResult): void {
    this.sent++;
    this.byCategory.set(request.category, (this.byCategory.get(request.category) ?? 0) + 1);
    this.msByCategory.set(request.category, (this.msByCategory.get(request.category) ?? 0) + result.ms);
    const bodyText = request.body === undefined ? '' : ` body ${excerpt(request.body.toString('utf8'), 80)}`;
    const line = `${request.method} ${excerpt(request.target, 120)}${request.contentType === undefined ? '' : ` [${request.contentType ?? 'no content-type'}]`}${bodyText}`;
    const fail = (kind: FailureClass, outcome: string, answer: string) =>
      this.failures.push({
        kind,
        op,
        category: request.category,
        defect: request.defect,
        request: line,
        outcome,
        answer,
      });
    if (result.ms > 1000) this.slow++;
    if (result.ms > this.slowest.ms)
      this.slowest = { ms: Math.round(result.ms), what: `${op}: ${request.defect}` };
    if (result.kind !== 'answer') {
      fail('no answer', `${result.kind}: ${result.detail}`, excerpt(result.partial.toString('latin1'), 160));
      return;
    }
    const answer = excerpt(result.body.toString('utf8'), 200);
    const code = errorCodeOf(result);
    const outcome = `${result.status}${code === undefined ? '' : ` ${code}`}`;
    if (result.writeFailed !== undefined) {
      fail('no answer', `${outcome} sent before the request was read, then ${result.writeFailed}`, answer);
    }
    if (result.status >= 500) fail('5xx', outcome, answer);
    else if (result.status < 400) fail('accepted (2xx/3xx)', outcome, answer);
    // A success is one failure ("accepted"), not also a second one for not being an error envelope.
    const problems = result.status >= 400 ? envelopeProblems(result) : [];
    if (problems.length > 0) fail('not the envelope', `${outcome}: ${problems.join('; ')}`, answer);
    if (result.status >= 400 && result.status < 500 && !request.expect.includes(result.status)) {
      this.offReference++;
      const key = `${request.category} | expected ${request.expect.join('/')} | got ${outcome}`;
      add(this.offReferenceGroups, key, op, {
        kind: '5xx',
        op,
        category: request.category,
        defect: request.defect,
        request: line,
        outcome,
        answer,
      });
    }
  }

  rowsChanged(op: string, tables: string[]): void {
    this.failures.push({
      kind: 'rows changed',
      op,
      category: '-',
      defect: `tables ${tables.join(', ')}`,
      request: '(the batch of this operation)',
      outcome: 'rows changed',
      answer: '',
    });
  }

  count(kind: FailureClass): number {
    return this.failures.filter((failure) => failure.kind === kind).length;
  }

  /** Failures grouped by class, category and outcome, biggest first. */
  groups(): Array<[string, Group]> {
    const groups = new Map<string, Group>();
    for (const failure of this.failures) {
      const outcome = failure.kind === 'not the envelope' ? failure.outcome : failure.outcome.split(':')[0];
      add(groups, `${failure.kind} | ${failure.category} | ${outcome}`, failure.op, failure);
    }
    return [...groups].sort((a, b) => b[1].count - a[1].count);
  }

  /** The figures: requests by category, time, failures by class, slow answers. */
  figures(header: string[]): string[] {
    const lines = [...header, `requests sent: ${this.sent}`];
    const present = CATEGORIES.filter((c) => this.byCategory.has(c));
    lines.push(`by category: ${present.map((c) => `${c} ${this.byCategory.get(c)}`).join(', ')}`);
    const seconds = (c: Category) => `${((this.msByCategory.get(c) ?? 0) / 1000).toFixed(1)} s`;
    lines.push(`time by category: ${present.map((c) => `${c} ${seconds(c)}`).join(', ')}`);
    lines.push(FAILURE_CLASSES.map((kind) => `${kind}: ${this.count(kind)}`).join(', '));
    lines.push(`answers slower than 1 s: ${this.slow} (slowest ${this.slowest.ms} ms: ${this.slowest.what})`);
    lines.push(
      `4xx other than the status docs/reference/errors.md gives the case (reported, not failed): ${this.offReference}`,
    );
    for (const [key, group] of [...this.offReferenceGroups].sort((a, b) => b[1].count - a[1].count)) {
      lines.push(
        `  ${key}: ${group.count} requests, ${group.ops.size} operations; e.g. ${group.sample.op} — ${group.sample.defect}`,
      );
    }
    return lines;
  }

  /** The failures grouped by cause, biggest first, with the operations (when few) and a sample. */
  failureText(): string[] {
    const lines: string[] = [];
    for (const [key, group] of this.groups()) {
      if (key.startsWith('rows changed')) {
        lines.push(`- rows changed after the batch of ${group.count} operations:`);
        for (const failure of this.failures.filter((item) => item.kind === 'rows changed')) {
          lines.push(`    ${failure.op}: ${failure.defect}`);
        }
        continue;
      }
      const few = group.ops.size <= 6 ? `: ${[...group.ops].join('; ')}` : '';
      const { sample } = group;
      lines.push(`- ${key}: ${group.count} requests, ${group.ops.size} operations${few}`);
      lines.push(`    e.g. ${sample.op} — ${sample.defect}`);
      lines.push(`         ${sample.request}`);
      lines.push(`         -> ${sample.outcome}${sample.answer === '' ? '' : ` ${sample.answer}`}`);
    }
    return lines;
  }
}

function add(groups: Map<string, Group>, key: string, op: string, failure: Failure): void {
  const group = groups.get(key) ?? { count: 0, ops: new Set<string>(), sample: failure };
  group.count++;
  group.ops.add(op);
  groups.set(key, group);
}
