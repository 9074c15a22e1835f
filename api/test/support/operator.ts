import { setOperatorOutsideScopesForTests } from '../../src/db/operator-scope';

/**
 * A suite's own reads and writes (fixtures, checks of what a route stored) are work of the first
 * operator the seed creates, id 1 on a fresh database: the operator the seeded administrator and demo
 * users start in. Suites about tenancy itself name their operators with runInOperator.
 */
export const TEST_OPERATOR_ID = 1;

setOperatorOutsideScopesForTests(TEST_OPERATOR_ID);
