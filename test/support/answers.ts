import { expect } from 'vitest';
import type { HttpAnswer } from './clients.js';

/** The body of an answer that must be a 200; the answer's text explains a failure. */
export function ok<T>(answer: HttpAnswer): T {
  expect(answer.status, answer.text).toBe(200);
  return answer.body as T;
}

/** A 400 refusal with exactly this code and message. */
export function refused(answer: HttpAnswer, code: number, msg: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { code, msg } });
}
