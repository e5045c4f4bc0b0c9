#!/usr/bin/env node
// Commit messages as docs/ARCHITECTURE.md asks: a subject of at most 72 characters and, for every commit
// that is not a merge, a body that says why. Checked from the commit where the rule began (older subjects
// averaged 199 characters and stay as they are); part of `npm run lint`.
import { execFileSync } from 'node:child_process';

const RULE_SINCE = 'bd78734'; // the last commit before the rule
const MAX_SUBJECT = 72;

function git(args) {
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { encoding: 'utf8' });
}

let log;
try {
  git(['cat-file', '-e', `${RULE_SINCE}^{commit}`]);
  log = git(['log', '--format=%H%x00%P%x00%B%x1e', `${RULE_SINCE}..HEAD`]);
} catch {
  console.log(`check-commits: ${RULE_SINCE} is not in this clone's history (shallow?); nothing checked`);
  process.exit(0);
}

const problems = [];
let count = 0;
for (const record of log.split('\x1e')) {
  const [hash, parents, message] = record.replace(/^\n/, '').split('\x00');
  if (!hash) continue;
  count++;
  const lines = message.trimEnd().split('\n');
  const subject = lines[0] ?? '';
  const isMerge = parents.trim().includes(' ');
  if (subject.length > MAX_SUBJECT)
    problems.push(`${hash.slice(0, 7)} subject is ${subject.length} > ${MAX_SUBJECT} characters: ${subject}`);
  const body = lines.slice(1).join('\n').trim();
  if (!isMerge && lines[1] !== undefined && lines[1] !== '')
    problems.push(`${hash.slice(0, 7)} needs a blank line after the subject`);
  if (!isMerge && body === '') problems.push(`${hash.slice(0, 7)} has no body saying why: ${subject}`);
}
if (problems.length > 0) {
  console.error(
    `check-commits: ${problems.length} problem(s) in ${count} commits since ${RULE_SINCE}:\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(
  `check-commits: ${count} commits since ${RULE_SINCE}, subjects ≤ ${MAX_SUBJECT} characters, each with a body`,
);
