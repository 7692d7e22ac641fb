export type { FindPlan, GroupFindPlan, GroupOutput, RowsFindPlan, RowsOrder, RowsProjection, SortDirection } from './find-plan.js'
export { planFind } from './plan-find.js'
export { planProjection, projectRow } from './projection.js'
export { searchWords } from './search-words.js'
