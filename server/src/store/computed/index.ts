// The computed-cells port (issue 25, decision 1422): statuses and staleness of computed columns, per row.
export type { ComputedCellsPort, ComputedCell, ComputedStatus, CellReset, CellCopy, ClaimedCell, CellOutcome } from './computed-cells-port.js'
