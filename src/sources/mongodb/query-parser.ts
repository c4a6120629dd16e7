import { parse, type Node } from 'acorn';
import { ObjectId } from 'mongodb';
import { InvalidQueryError } from '../errors.js';
import type { ResolvedVariables } from '../types.js';
import { exactPlaceholder, findPlaceholders } from '../variables/placeholders.js';
import {
  bindMongoValue,
  DateTemplate,
  ObjectIdTemplate,
  PlaceholderValue,
  TemplateRegExp,
  TemplateString,
} from '../variables/mongo.js';

export type MongoOperation = 'find' | 'findOne' | 'aggregate' | 'countDocuments' | 'distinct';
export type MongoCursorStep = 'sort' | 'limit' | 'skip' | 'project';

/**
 * The exact driver calls a query text stands for:
 * `db.collection(collection)[method](...args)` then each cursor step in order.
 */
export interface MongoPlan {
  collection: string;
  method: MongoOperation;
  args: unknown[];
  steps: Array<{ method: MongoCursorStep; args: unknown[] }>;
}

const OPERATIONS: Record<MongoOperation, { maxArgs: number; options: readonly string[] }> = {
  find: {
    maxArgs: 2,
    options: ['projection', 'sort', 'limit', 'skip', 'hint', 'collation', 'comment', 'maxTimeMS', 'allowDiskUse', 'min', 'max', 'returnKey', 'showRecordId', 'batchSize'],
  },
  findOne: {
    maxArgs: 2,
    options: ['projection', 'sort', 'skip', 'hint', 'collation', 'comment', 'maxTimeMS', 'min', 'max', 'returnKey', 'showRecordId'],
  },
  aggregate: { maxArgs: 2, options: ['allowDiskUse', 'collation', 'comment', 'hint', 'let', 'maxTimeMS', 'batchSize'] },
  countDocuments: { maxArgs: 2, options: ['limit', 'skip', 'hint', 'collation', 'comment', 'maxTimeMS'] },
  distinct: { maxArgs: 3, options: ['collation', 'comment', 'maxTimeMS', 'hint'] },
};
const CURSOR_STEPS: readonly MongoCursorStep[] = ['sort', 'limit', 'skip', 'project'];
/** Where each operation takes its options object. */
const OPTIONS_INDEX: Record<MongoOperation, number> = { find: 1, findOne: 1, aggregate: 1, countDocuments: 1, distinct: 2 };
/** Writes ($out, $merge) and server-side JavaScript ($where, $function, $accumulator). */
const FORBIDDEN_OPERATORS = new Set(['$out', '$merge', '$where', '$function', '$accumulator']);
const ALLOWED_LIST = 'find, findOne, aggregate, countDocuments, distinct, then sort, limit, skip, project';

/* Minimal views of the acorn (ESTree) nodes this parser reads. */
interface N extends Node {
  [key: string]: unknown;
}
type Expr = N & { type: string };

function fail(message: string): never {
  throw new InvalidQueryError(`Invalid MongoDB query: ${message}`);
}

function describe(node: Expr): string {
  switch (node.type) {
    case 'Identifier':
      return `the identifier "${String(node['name'])}"`;
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      return 'a function';
    case 'BinaryExpression':
    case 'LogicalExpression':
    case 'AssignmentExpression':
      return `the operator "${String(node['operator'])}"`;
    case 'TemplateLiteral':
      return 'a template string with ${…} expressions';
    case 'SpreadElement':
      return 'spread syntax (...)';
    case 'ConditionalExpression':
      return 'a conditional (?:) expression';
    default:
      return `a ${node.type}`;
  }
}

/** Parses a MongoDB call chain without evaluating it; placeholders stay as markers until bound. */
export function parseMongoQuery(text: string): MongoPlan {
  const source = text.trim().replace(/;\s*$/, '');
  if (!source) fail('the query is empty');
  let program: N;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as N;
  } catch (error) {
    fail((error as Error).message);
  }
  const body = program['body'] as Expr[];
  const statement = body[0];
  if (body.length !== 1 || !statement || statement.type !== 'ExpressionStatement') fail('write exactly one call chain, such as collection("orders").find({})');
  return planFromChain(statement['expression'] as Expr);
}

/** Parses and binds in one step: the plan with typed values in place of placeholders. */
export function compileMongoQuery(text: string, variables: ResolvedVariables | undefined): MongoPlan {
  return bindMongoPlan(parseMongoQuery(text), variables);
}

function bindMongoPlan(plan: MongoPlan, variables: ResolvedVariables | undefined): MongoPlan {
  const bound: MongoPlan = {
    collection: plan.collection,
    method: plan.method,
    args: plan.args.map((arg) => bindMongoValue(arg, variables)),
    steps: plan.steps.map((step) => ({ method: step.method, args: step.args.map((arg) => bindMongoValue(arg, variables)) })),
  };
  for (const step of bound.steps) {
    if ((step.method === 'limit' || step.method === 'skip') && !(Number.isInteger(step.args[0]) && (step.args[0] as number) >= 0)) {
      fail(`${step.method}() needs a non-negative integer`);
    }
  }
  // Checked once bound, since a variable may give the value: 0 would mean "no limit" to the server.
  const options = bound.args[OPTIONS_INDEX[bound.method]];
  if (options !== null && typeof options === 'object' && 'maxTimeMS' in options) {
    const value = (options as { maxTimeMS: unknown }).maxTimeMS;
    if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 1)) {
      fail(`the maxTimeMS option must be a whole number of milliseconds, at least 1 (got ${JSON.stringify(value) ?? String(value)}); it can shorten the run's time limit, never lift it`);
    }
  }
  return bound;
}

interface Call {
  name: string;
  args: Expr[];
}

function planFromChain(expression: Expr): MongoPlan {
  const calls: Call[] = [];
  let node: Expr | undefined = expression;
  let collection: string | undefined;

  while (node && node.type === 'CallExpression') {
    const callee = node['callee'] as Expr;
    const args = node['arguments'] as Expr[];
    if (callee.type === 'Identifier') {
      // collection('orders') at the root.
      if (callee['name'] !== 'collection') fail(`the chain must start with collection("name"), not ${String(callee['name'])}()`);
      collection = collectionName(args);
      node = undefined;
      break;
    }
    if (callee.type !== 'MemberExpression') fail(`the chain must start with collection("name"), not ${describe(callee)}`);
    const property = callee['property'] as Expr;
    if (callee['computed'] || property.type !== 'Identifier') fail('computed member access (x[...]) is not allowed');
    const name = String(property['name']);
    const object = callee['object'] as Expr;
    if (isDbRoot(object) && (name === 'collection' || name === 'getCollection')) {
      collection = collectionName(args);
      node = undefined;
      break;
    }
    calls.unshift({ name, args });
    node = object;
  }
  if (node && isDbRoot(node) && calls[0]) fail(`the method "${calls[0].name}" is not allowed on db (allowed: collection("name") then ${ALLOWED_LIST})`);
  if (node) {
    // db.orders.find(...) / db['orders'].find(...)
    if (node.type === 'MemberExpression' && isDbRoot(node['object'] as Expr)) {
      const property = node['property'] as Expr;
      if (!node['computed'] && property.type === 'Identifier') collection = String(property['name']);
      else if (property.type === 'Literal' && typeof property['value'] === 'string') collection = property['value'];
      else fail('the collection name must be a string');
    } else {
      fail(`the chain must start with collection("name") or db.collection("name"), not ${describe(node)}`);
    }
  }
  if (!collection) fail('no collection given');

  const [first, ...rest] = calls;
  if (!first) fail('no operation: add find(), aggregate(), …');
  if (!(first.name in OPERATIONS)) fail(`the method "${first.name}" is not allowed (allowed: ${ALLOWED_LIST})`);
  const method = first.name as MongoOperation;
  const args = operationArgs(method, first.args);

  const steps: MongoPlan['steps'] = [];
  rest.forEach((call, index) => {
    if (call.name === 'toArray') {
      if (index !== rest.length - 1 || call.args.length > 0) fail('toArray() can only end the chain');
      return;
    }
    if (!CURSOR_STEPS.includes(call.name as MongoCursorStep)) fail(`the method "${call.name}" is not allowed (allowed: ${ALLOWED_LIST})`);
    if (method !== 'find' && method !== 'aggregate') fail(`${call.name}() cannot follow ${method}()`);
    if (call.args.length !== 1) fail(`${call.name}() takes exactly one argument`);
    steps.push({ method: call.name as MongoCursorStep, args: [toValue(call.args[0]!, call.name)] });
  });
  return { collection, method, args, steps };
}

function isDbRoot(node: Expr): boolean {
  return node.type === 'Identifier' && (node['name'] === 'db' || node['name'] === 'connection');
}

function collectionName(args: Expr[]): string {
  const arg = args[0];
  if (args.length !== 1 || !arg || arg.type !== 'Literal' || typeof arg['value'] !== 'string' || !arg['value']) {
    fail('collection() takes one string: the collection name');
  }
  if (findPlaceholders(arg['value'] as string).length > 0) fail('the collection name cannot be a variable');
  return arg['value'] as string;
}

function operationArgs(method: MongoOperation, nodes: Expr[]): unknown[] {
  const spec = OPERATIONS[method];
  if (nodes.length > spec.maxArgs) fail(`${method}() takes at most ${spec.maxArgs} arguments`);
  const values = nodes.map((node, i) => toValue(node, `${method}() argument ${i + 1}`));
  if (method === 'aggregate' && !Array.isArray(values[0])) fail('aggregate() needs a pipeline array');
  if (method === 'distinct' && typeof values[0] !== 'string') fail('distinct() needs a field name string first');
  const optionsIndex = method === 'distinct' ? 2 : method === 'aggregate' ? 1 : 1;
  const options = values[optionsIndex];
  if (options !== undefined) {
    if (!isPlainRecord(options)) fail(`the options of ${method}() must be an object`);
    for (const key of Object.keys(options)) {
      if (!spec.options.includes(key)) fail(`the option "${key}" is not allowed for ${method}() (allowed: ${spec.options.join(', ')})`);
    }
  }
  const filterIndex = method === 'distinct' ? 1 : method === 'aggregate' ? -1 : 0;
  const filter = filterIndex >= 0 ? values[filterIndex] : undefined;
  if (filter !== undefined && !isPlainRecord(filter)) fail(`the filter of ${method}() must be an object`);
  return values;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

function stringValue(text: string): unknown {
  if (findPlaceholders(text).length === 0) return text;
  const only = exactPlaceholder(text);
  return only !== undefined ? new PlaceholderValue(only) : new TemplateString(text);
}

/** Literal values only: objects, arrays, strings, numbers, booleans, null, regexes, ObjectId(), dates. */
function toValue(node: Expr, where: string): unknown {
  switch (node.type) {
    case 'Literal': {
      const regex = node['regex'] as { pattern: string; flags: string } | undefined;
      if (regex) {
        if (findPlaceholders(regex.pattern).length > 0) return new TemplateRegExp(regex.pattern, regex.flags);
        return new RegExp(regex.pattern, regex.flags);
      }
      if (node['bigint'] !== undefined) fail(`BigInt literals are not supported (in ${where})`);
      const value = node['value'];
      return typeof value === 'string' ? stringValue(value) : value;
    }
    case 'TemplateLiteral': {
      if ((node['expressions'] as Expr[]).length > 0) fail(`${describe(node)} is not allowed (in ${where})`);
      const quasis = node['quasis'] as Array<{ value: { cooked: string | null } }>;
      return stringValue(quasis[0]?.value.cooked ?? '');
    }
    case 'UnaryExpression': {
      const argument = node['argument'] as Expr;
      const operator = node['operator'];
      if ((operator === '-' || operator === '+') && argument.type === 'Literal' && typeof argument['value'] === 'number') {
        return operator === '-' ? -argument['value'] : argument['value'];
      }
      return fail(`the operator "${String(operator)}" is not allowed (in ${where})`);
    }
    case 'ArrayExpression':
      return (node['elements'] as Array<Expr | null>).map((element) => {
        if (element === null) fail(`empty array slots are not allowed (in ${where})`);
        if (element.type === 'SpreadElement') fail(`${describe(element)} is not allowed (in ${where})`);
        return toValue(element, where);
      });
    case 'ObjectExpression':
      return objectValue(node, where);
    case 'CallExpression':
    case 'NewExpression':
      return constructorCall(node, where);
    default:
      return fail(`${describe(node)} is not allowed (in ${where}); only literal values can be used`);
  }
}

function objectValue(node: Expr, where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const property of node['properties'] as Expr[]) {
    if (property.type !== 'Property') fail(`${describe(property)} is not allowed (in ${where})`);
    if (property['computed']) fail(`computed keys ([key]: …) are not allowed (in ${where})`);
    if (property['method'] || property['kind'] !== 'init') fail(`methods and getters are not allowed (in ${where})`);
    if (property['shorthand']) fail(`shorthand properties ({ x }) are not allowed (in ${where}); write { x: value }`);
    const keyNode = property['key'] as Expr;
    const key =
      keyNode.type === 'Identifier'
        ? String(keyNode['name'])
        : keyNode.type === 'Literal' && (typeof keyNode['value'] === 'string' || typeof keyNode['value'] === 'number')
          ? String(keyNode['value'])
          : fail(`unsupported key (in ${where})`);
    if (findPlaceholders(key).length > 0) fail(`keys cannot be variables (in ${where})`);
    if (FORBIDDEN_OPERATORS.has(key)) fail(`the operator "${key}" is not allowed: queries can only read`);
    if (key === '$maxTimeMS') fail('the modifier "$maxTimeMS" is not allowed: the time limit is the run\'s; the maxTimeMS option can shorten it');
    Object.defineProperty(out, key, { value: toValue(property['value'] as Expr, where), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function constructorCall(node: Expr, where: string): unknown {
  const callee = node['callee'] as Expr;
  const name = callee.type === 'Identifier' ? String(callee['name']) : '';
  const args = node['arguments'] as Expr[];
  if (args.length > 1) fail(`${name || 'this call'}() takes at most one argument (in ${where})`);
  const arg = args[0] ? toValue(args[0], where) : undefined;

  if (name === 'ObjectId') {
    if (arg instanceof PlaceholderValue || arg instanceof TemplateString) return new ObjectIdTemplate(arg);
    if (typeof arg !== 'string' || !/^[0-9a-fA-F]{24}$/.test(arg)) fail(`ObjectId() needs 24 hexadecimal characters (in ${where})`);
    return new ObjectId(arg);
  }
  if (name === 'Date' || name === 'ISODate') {
    if (arg === undefined || arg instanceof PlaceholderValue || arg instanceof TemplateString) return new DateTemplate(arg);
    if (typeof arg !== 'string' && typeof arg !== 'number') fail(`${name}() needs a date string or a number (in ${where})`);
    const date = new Date(arg);
    if (Number.isNaN(date.getTime())) fail(`${name}(${JSON.stringify(arg)}) is not a valid date (in ${where})`);
    return date;
  }
  return fail(`${name ? `calling ${name}()` : describe(callee)} is not allowed (in ${where}); only ObjectId(), Date(), new Date() and ISODate() can be used`);
}
