// JSON reporter: the whole run summary (server info, counts, every case with its checks) as one file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { clauseLink } from '../lib/clauses';
import type { Reporter, RunSummary } from './types';

export function summaryToJson(s: RunSummary): object {
  return {
    tool: 'idea-conformance',
    startedAt: s.startedAt,
    durationMs: s.durationMs,
    url: s.url,
    server: s.server,
    ...(s.implementation ? { implementation: s.implementation } : {}),
    ...(s.client ? { client: s.client } : {}),
    version: s.version,
    versionSource: s.versionSource,
    profiles: s.profiles,
    scope: s.scope,
    ok: s.ok,
    counts: s.counts,
    byProfile: s.byProfile,
    warnings: s.warnings,
    stale: s.stale,
    cases: s.results.map((r) => ({
      id: r.id,
      file: r.file,
      description: r.description,
      clause: r.clause,
      clauseLink: clauseLink(r.clause),
      profile: r.profile,
      level: r.level,
      ...(r.topic ? { topic: r.topic } : {}),
      verdict: r.verdict,
      ...(r.expectedFailure ? { expectedFailure: true } : {}),
      ...(r.required ? { required: true } : {}),
      ...(r.missingTopics ? { missingTopics: r.missingTopics } : {}),
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.sent ? { sent: r.sent } : {}),
      durationMs: r.durationMs,
      ...(r.resetMs !== undefined ? { resetMs: r.resetMs, settleMs: r.settleMs } : {}),
      frames: r.frames,
      checks: r.checks,
      ...(r.transcript ? { transcript: r.transcript } : {}),
      ...(r.transcriptOmitted ? { transcriptOmitted: r.transcriptOmitted } : {}),
    })),
  };
}

export class JsonReporter implements Reporter {
  constructor(private readonly path: string) {}
  onRunEnd(s: RunSummary): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, `${JSON.stringify(summaryToJson(s), null, 2)}\n`);
  }
}
