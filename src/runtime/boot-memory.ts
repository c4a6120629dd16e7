/**
 * Start-up allocates a burst of short-lived objects (compiling modules, building the app), which V8
 * takes as a reason to grow the young generation to its maximum; an idle process never shrinks it
 * back (about 20 MB resident for nothing). Growth of the young generation is held while the process
 * boots and given back V8's default once it serves, so load grows it as before. Imported first by
 * main.ts. A `--semi-space-growth-factor` chosen on the command line or in NODE_OPTIONS is left
 * alone. docs/decisions/0019-load-on-first-use.md.
 */
import v8 from 'node:v8';

const FLAG = '--semi-space-growth-factor';
/** V8's default (`node --v8-options`), the same on Node 20 and 24. */
const V8_DEFAULT = 2;

const chosenByUser = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)].some((arg) =>
  arg.replace(/_/g, '-').startsWith(FLAG),
);
let holding = !chosenByUser;
if (holding) v8.setFlagsFromString(`${FLAG}=1`);

/** The process serves now: the young generation may grow with the load. */
export function bootFinished(): void {
  if (!holding) return;
  holding = false;
  v8.setFlagsFromString(`${FLAG}=${V8_DEFAULT}`);
}
