import { useEffect, useState } from 'react';

/** `value` once it has stayed the same (compared as JSON) for `ms` milliseconds, and whether that is the value as it is now. */
export function useSettled<T>(value: T, ms: number): { settled: T; current: boolean } {
  const json = JSON.stringify(value);
  const [settled, setSettled] = useState({ json, value });
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled({ json, value }), ms);
    return () => window.clearTimeout(timer);
    // Not `value`: a value with the same JSON is the same value.
  }, [json, ms]);
  return { settled: settled.value, current: settled.json === json };
}
