#!/usr/bin/env node
// `npm start`: build when needed, then run the CLI (default command: serve).
import { buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded();
await import('../dist/main.js');
