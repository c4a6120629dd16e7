#!/usr/bin/env node
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';

buildIfNeeded();
// Before the service's modules load: start-up must not grow the young generation for good (decision 0019).
await import('../dist/runtime/boot-memory.js');
await import('../dist/main.js');
