#!/usr/bin/env node
// Runs the whole suite with vitest, then prints one plain line "N passed, N failed, N skipped"
// computed from vitest's JSON report, and exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';

const out = path.resolve('test-results/vitest.json');
mkdirSync(path.dirname(out), { recursive: true });
if (existsSync(out)) rmSync(out);

const vitest = path.resolve('node_modules/vitest/vitest.mjs');
const args = [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const run = spawnSync(process.execPath, args, { stdio: 'inherit', env: process.env });

if (!existsSync(out)) {
  console.log('0 passed, 1 failed (vitest produced no report)');
  process.exit(run.status || 1);
}
const report = JSON.parse(readFileSync(out, 'utf8'));
const passed = report.numPassedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
// A file that fails outside its tests (it does not load, a hook throws or times out) counts as a
// failure even when none of its tests failed.
const brokenFiles = (report.testResults ?? []).filter(
  (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
// Name every failure once more at the end, where a log cut to its tail still shows it.
for (const file of report.testResults ?? []) {
  const where = path.relative(process.cwd(), file.name);
  const failures = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
  if (file.status === 'failed' && failures.length === 0) {
    console.log(`FAILED ${where}: ${firstLine(file.message) || 'the file failed outside its tests'}`);
  }
  for (const a of failures) {
    console.log(`FAILED ${where} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || run.status !== 0 ? 1 : 0);

function firstLine(text) {
  return String(text ?? '').split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 300) ?? '';
}
