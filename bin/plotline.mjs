#!/usr/bin/env node
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';

buildIfNeeded();
await import('../dist/main.js');
