/**
 * Value formulas such as `{val * 100}%`, `${val / 1000}k` or `{round(val / 3, 1)} pts`.
 * Text before the first `{` is a prefix, text after its `}` a suffix; inside is an expression
 * read by a small parser (never eval or Function):
 *   numbers, `val`, + - * / % (remainder), parentheses, unary minus and plus,
 *   round(x[, n]) floor(x) ceil(x) abs(x) trunc(x) sqrt(x) pow(x, y) min(a, …) max(a, …)
 *   (case-insensitive, optionally written `Math.round(…)`), and `x.toFixed(n)`.
 * Results are rounded to 2 decimals, unless the whole expression is `round(x, n)` or
 * `x.toFixed(n)` with a constant n, which then sets the decimals (also used when formatting).
 */
import { InvalidChartConfigError } from './errors.js';
import { roundTo } from './values.js';

type Evaluate = (val: number) => number;

export interface Formula {
  readonly source: string;
  readonly prefix: string;
  readonly suffix: string;
  /** Decimals of every result (2 unless the expression fixes them). */
  readonly decimals: number;
  /** True when the expression set `decimals` itself (the formatted value then shows exactly that many). */
  readonly fixedDecimals: boolean;
  /** The formula applied to a value; null when the result is not a finite number. */
  apply(value: number): number | null;
}

export const DEFAULT_FORMULA_DECIMALS = 2;

interface Token {
  kind: 'num' | 'ident' | 'op' | 'end';
  text: string;
  value: number;
  at: number;
}

interface Node {
  evaluate: Evaluate;
  /** Decimals the node rounds to when it is `round(x, n)` / `x.toFixed(n)` with constant n. */
  roundsTo: number | null;
  constant: number | null;
}

const FUNCTIONS: Record<string, { min: number; max: number; fn: (args: number[]) => number }> = {
  round: { min: 1, max: 2, fn: (a) => roundTo(a[0]!, a[1] ?? 0) },
  floor: { min: 1, max: 1, fn: (a) => Math.floor(a[0]!) },
  ceil: { min: 1, max: 1, fn: (a) => Math.ceil(a[0]!) },
  abs: { min: 1, max: 1, fn: (a) => Math.abs(a[0]!) },
  trunc: { min: 1, max: 1, fn: (a) => Math.trunc(a[0]!) },
  sqrt: { min: 1, max: 1, fn: (a) => Math.sqrt(a[0]!) },
  pow: { min: 2, max: 2, fn: (a) => a[0]! ** a[1]! },
  min: { min: 1, max: 64, fn: (a) => Math.min(...a) },
  max: { min: 1, max: 64, fn: (a) => Math.max(...a) },
};

export function compileFormula(source: string, where = 'formula'): Formula {
  const open = source.indexOf('{');
  const close = open === -1 ? -1 : source.indexOf('}', open + 1);
  if (open === -1 || close === -1) {
    throw new InvalidChartConfigError(where, 'a formula needs an expression in braces, e.g. "{val / 100}"');
  }
  const prefix = source.slice(0, open);
  const suffix = source.slice(close + 1);
  const expression = source.slice(open + 1, close);
  const node = parseExpression(expression, where);
  const fixedDecimals = node.roundsTo !== null;
  const decimals = node.roundsTo ?? DEFAULT_FORMULA_DECIMALS;
  const evaluate = node.evaluate;
  return {
    source,
    prefix,
    suffix,
    decimals,
    fixedDecimals,
    apply(value) {
      const result = evaluate(value);
      return Number.isFinite(result) ? roundTo(result, decimals) : null;
    },
  };
}

function tokenize(text: string, where: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i += 1;
      continue;
    }
    const at = i;
    if ((ch >= '0' && ch <= '9') || (ch === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const m = /^(\d+\.?\d*|\.\d+)(e[-+]?\d+)?/i.exec(text.slice(i))!;
      tokens.push({ kind: 'num', text: m[0], value: Number(m[0]), at });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      tokens.push({ kind: 'ident', text: m[0], value: NaN, at });
      i += m[0].length;
    } else if ('+-*/%(),.'.includes(ch)) {
      tokens.push({ kind: 'op', text: ch, value: NaN, at });
      i += 1;
    } else {
      throw new InvalidChartConfigError(where, `unexpected "${ch}" at position ${i + 1} of the formula`);
    }
  }
  tokens.push({ kind: 'end', text: '', value: NaN, at: text.length });
  return tokens;
}

function parseExpression(text: string, where: string): Node {
  const tokens = tokenize(text, where);
  let pos = 0;
  const peek = (): Token => tokens[pos]!;
  const fail = (message: string): never => {
    throw new InvalidChartConfigError(where, `${message} in formula expression "${text}"`);
  };
  const expectOp = (op: string) => {
    const t = peek();
    if (t.kind !== 'op' || t.text !== op) fail(`expected "${op}"`);
    pos += 1;
  };
  const isOp = (op: string) => peek().kind === 'op' && peek().text === op;

  const binary = (left: Node, right: Node, op: string): Node => {
    const l = left.evaluate;
    const r = right.evaluate;
    let evaluate: Evaluate;
    switch (op) {
      case '+':
        evaluate = (v) => l(v) + r(v);
        break;
      case '-':
        evaluate = (v) => l(v) - r(v);
        break;
      case '*':
        evaluate = (v) => l(v) * r(v);
        break;
      case '/':
        evaluate = (v) => l(v) / r(v);
        break;
      default:
        evaluate = (v) => l(v) % r(v);
    }
    return { evaluate, roundsTo: null, constant: null };
  };

  function expr(): Node {
    let left = term();
    while (isOp('+') || isOp('-')) {
      const op = peek().text;
      pos += 1;
      left = binary(left, term(), op);
    }
    return left;
  }

  function term(): Node {
    let left = unary();
    while (isOp('*') || isOp('/') || isOp('%')) {
      const op = peek().text;
      pos += 1;
      left = binary(left, unary(), op);
    }
    return left;
  }

  function unary(): Node {
    if (isOp('-')) {
      pos += 1;
      const inner = unary().evaluate;
      return { evaluate: (v) => -inner(v), roundsTo: null, constant: null };
    }
    if (isOp('+')) {
      pos += 1;
      return unary();
    }
    return postfix();
  }

  function postfix(): Node {
    let node = primary();
    while (isOp('.')) {
      pos += 1;
      const name = peek();
      if (name.kind !== 'ident' || name.text.toLowerCase() !== 'tofixed') fail('only .toFixed(n) may follow a value');
      pos += 1;
      expectOp('(');
      const digits = expr();
      expectOp(')');
      const inner = node.evaluate;
      const d = digits.evaluate;
      node = { evaluate: (v) => roundTo(inner(v), d(v)), roundsTo: digits.constant, constant: null };
    }
    return node;
  }

  function primary(): Node {
    const t = peek();
    if (t.kind === 'num') {
      pos += 1;
      const value = t.value;
      return { evaluate: () => value, roundsTo: null, constant: value };
    }
    if (isOp('(')) {
      pos += 1;
      const inner = expr();
      expectOp(')');
      return inner;
    }
    if (t.kind === 'ident') {
      pos += 1;
      let name = t.text.toLowerCase();
      if (name === 'math' && isOp('.')) {
        pos += 1;
        const fn = peek();
        if (fn.kind !== 'ident') fail('expected a function name after "Math."');
        pos += 1;
        name = fn.text.toLowerCase();
        if (!isOp('(')) fail(`"Math.${fn.text}" must be called`);
      }
      if (name === 'val' && !isOp('(')) return { evaluate: (v) => v, roundsTo: null, constant: null };
      const spec = FUNCTIONS[name];
      if (!spec) fail(`unknown name "${t.text}"`);
      expectOp('(');
      const args: Node[] = [];
      if (!isOp(')')) {
        args.push(expr());
        while (isOp(',')) {
          pos += 1;
          args.push(expr());
        }
      }
      expectOp(')');
      if (args.length < spec!.min || args.length > spec!.max) fail(`${name}() takes ${spec!.min}–${spec!.max} arguments`);
      const fn = spec!.fn;
      const evals = args.map((a) => a.evaluate);
      const evaluate: Evaluate = (v) => fn(evals.map((e) => e(v)));
      const roundsTo = name === 'round' ? (args.length === 2 ? args[1]!.constant : 0) : null;
      return { evaluate, roundsTo, constant: null };
    }
    return fail(t.kind === 'end' ? 'unexpected end' : `unexpected "${t.text}"`);
  }

  const node = expr();
  if (peek().kind !== 'end') fail(`unexpected "${peek().text}"`);
  return node;
}
