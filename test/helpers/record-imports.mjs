// Module hooks for a child process (registered by test/helpers/boot-service.ts): appends the URL
// of every module loaded from node_modules to the file named in `data.file`.
import { appendFileSync } from 'node:fs';

let file;

export async function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  if (url.includes('/node_modules/')) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
