import { evaluate, parseExpression } from 'feelin';
import { FlowError } from './errors';

/**
 * FEEL through feelin, never JavaScript eval. A `${…}` wrapper (what Flowable / BladeX models
 * carry) is read as the FEEL inside it; `=` in front (Camunda 8's marker) is dropped.
 */
export function feelText(expression: string): string {
  const t = expression.trim();
  const wrapped = /^\$\{([\s\S]*)\}$/.exec(t);
  if (wrapped) return (wrapped[1] ?? '').trim();
  return t.startsWith('=') ? t.slice(1).trim() : t;
}

/** What is wrong with a FEEL expression (the deploy check: the parse has no error node and it runs), or null. */
export function feelProblem(expression: string): string | null {
  const text = feelText(expression);
  if (!text) return 'empty';
  let problem: string | null = null;
  try {
    const tree = parseExpression(text, {}, undefined);
    tree.iterate({
      enter(node) {
        if (node.type.isError && !problem) problem = `syntax error at ${node.from}`;
      },
    });
  } catch (err) {
    return err instanceof Error ? err.message : 'syntax error';
  }
  if (problem) return problem;
  // A grammatical text the interpreter cannot run even without variables (`days > > 3`).
  try {
    evaluate(text, {});
  } catch (err) {
    return err instanceof Error ? err.message : 'cannot be evaluated';
  }
  return null;
}

/** A condition's value over the instance's variables: true only for FEEL `true`. A broken expression is a 400. */
export function conditionHolds(expression: string, variables: Record<string, unknown>): boolean {
  try {
    return evaluate(feelText(expression), variables).value === true;
  } catch {
    throw new FlowError('flow.badExpression', { expression });
  }
}

/**
 * An attribute that may be an expression (assignee, candidates, due date): `${x}` or `=x` is FEEL
 * over the variables; anything else is the literal text.
 */
export function resolveExpression(text: string, variables: Record<string, unknown>): unknown {
  const t = text.trim();
  if (!/^\$\{[\s\S]*\}$/.test(t) && !t.startsWith('=')) return t;
  try {
    return evaluate(feelText(t), variables).value;
  } catch {
    throw new FlowError('flow.badExpression', { expression: t });
  }
}

/** Whether an attribute is written as an expression. */
export const isExpression = (text: string) => /^\$\{[\s\S]*\}$/.test(text.trim()) || text.trim().startsWith('=');
