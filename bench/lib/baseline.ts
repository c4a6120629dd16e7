/**
 * Another revision of the project beside this checkout, to measure both in one run
 * (`BASELINE=<git revision>`): a detached git worktree in a temp dir that shares this checkout's
 * node_modules, built as `npm start` builds. The revision must install the same dependencies
 * as this one; it is removed afterwards.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt, root } from './server-process.js';

export interface Baseline {
  /** The short commit id, as the results name it. */
  revision: string;
  dir: string;
  remove(): void;
}

export function checkoutBaseline(revision: string): Baseline {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  const short = git('rev-parse', '--short', `${revision}^{commit}`);
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'plotline-baseline-')), 'tree');
  git('worktree', 'add', '--detach', dir, short);
  const remove = () => {
    git('worktree', 'remove', '--force', dir);
    rmSync(path.dirname(dir), { recursive: true, force: true });
  };
  try {
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    ensureBuilt(dir);
  } catch (error) {
    remove();
    throw error;
  }
  return { revision: short, dir, remove };
}
