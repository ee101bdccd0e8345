import { describe, expect, it } from 'vitest';
import { createWorkGate } from './work-gate.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('work gate', () => {
  it('never runs more jobs than its limit, and runs them all in arrival order', async () => {
    const gate = createWorkGate(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const jobs = Array.from({ length: 9 }, (_, i) =>
      gate.run(async () => {
        started.push(i);
        running++;
        peak = Math.max(peak, running);
        await tick();
        running--;
        return i * 10;
      }),
    );
    expect(gate.active).toBe(2);
    expect(gate.waiting).toBe(7);
    expect(await Promise.all(jobs)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(gate.active).toBe(0);
  });

  it('frees the slot of a job that fails', async () => {
    const gate = createWorkGate(1);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'next')).toBe('next');
    expect(gate.active).toBe(0);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => createWorkGate(0)).toThrow(RangeError);
    expect(() => createWorkGate(1.5)).toThrow(RangeError);
  });
});
