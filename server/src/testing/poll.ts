/**
 * Polls `check` every `intervalMs` until it holds; throws after `timeoutMs`. Answers the
 * milliseconds it waited, for tests that bound how soon a change is seen.
 */
export async function pollUntil(
  check: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<number> {
  const { timeoutMs = 3_000, intervalMs = 20, what = 'condition' } = options;
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return Date.now() - started;
}
