import NodeEnvironment from 'jest-environment-node';
import type { Circus } from '@jest/types';

/**
 * Jest's Node environment, plus one flag on the test's global: `__fssInTestBody` is true while a
 * test's own function runs (not its hooks). The test app's answer recorder (test/helpers/answers.ts)
 * counts only the answers given then, so set-up in beforeAll/beforeEach proves no operation's effect.
 */
export default class TestEnvironment extends NodeEnvironment {
  handleTestEvent(event: Circus.Event): void {
    if (event.name === 'test_fn_start') this.global.__fssInTestBody = true;
    else if (event.name === 'test_fn_success' || event.name === 'test_fn_failure') this.global.__fssInTestBody = false;
  }
}
